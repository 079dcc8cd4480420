package clirun

import (
	"runtime/debug"
	"strings"
)

// Version is the version a program reports: set, when the build gave one
// (-ldflags "-X main.version=..."), else what the Go toolchain recorded in
// the binary: the module version for go install module@v1.2.3, def with
// the VCS revision for a build in a git checkout, else def.
func Version(set, def string) string {
	if set != "" && set != def {
		return set
	}
	return buildVersion(def, debug.ReadBuildInfo)
}

func buildVersion(def string, read func() (*debug.BuildInfo, bool)) string {
	info, ok := read()
	if !ok {
		return def
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
		return def
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return def + "+" + rev
}
