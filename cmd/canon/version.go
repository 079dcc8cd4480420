package main

import (
	"runtime/debug"
	"strings"
)

// The Makefile may set version with -ldflags "-X main.version=..."; any
// other build (go install module@version, go build) falls back to what the
// Go toolchain recorded in the binary.
func init() {
	if version == "" || version == defaultVersion {
		version = buildVersion(debug.ReadBuildInfo)
	}
}

const defaultVersion = "0.1.0-dev"

// buildVersion is the module version from the build info (v1.2.3 for go
// install module@v1.2.3, a pseudo-version with the commit for a build in a
// git checkout), else the VCS revision, else defaultVersion.
func buildVersion(read func() (*debug.BuildInfo, bool)) string {
	info, ok := read()
	if !ok {
		return defaultVersion
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return defaultVersion
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return defaultVersion + "+" + rev
}
