package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by -ldflags "-X main.version=... -X main.commit=..." (make release).
var (
	version = "dev"
	commit  = ""
)

func toolVersion() string { return version }

func versionString() string {
	c := commit
	if c == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" {
					c = s.Value
				}
			}
		}
	}
	if c == "" {
		c = "unknown"
	}
	return fmt.Sprintf("latgate %s (commit %s, %s, %s/%s)", version, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
