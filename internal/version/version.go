// Package version says which latgate this is: the release stamped by the
// linker (make release), else the module version or VCS information Go
// embeds.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by -ldflags "-X github.com/latgate/latgate/internal/version.version=..." (make release).
var (
	version = "dev"
	commit  = ""
)

// Tool is the release, else the module version, else "dev".
func Tool() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

// String is the line `latgate version` prints.
func String() string {
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
	return fmt.Sprintf("latgate %s (commit %s, %s, %s/%s)", Tool(), c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
