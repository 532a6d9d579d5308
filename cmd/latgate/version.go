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

// toolVersion is the release (make release), else the module version that
// `go install …@vX` records, else "dev".
func toolVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

func versionString() string {
	c := commit
	if bi, ok := debug.ReadBuildInfo(); ok && c == "" {
		dirty := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				c = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if c != "" && dirty {
			c += "-dirty"
		}
	}
	if c == "" {
		// go run (or -buildvcs=false) builds without VCS stamping.
		c = "not stamped: built without VCS information, as go run or -buildvcs=false do; make build stamps it"
	}
	return fmt.Sprintf("latgate %s (commit %s, %s, %s/%s)", toolVersion(), c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
