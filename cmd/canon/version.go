package main

import (
	"runtime/debug"
	"strings"
)

// commit and date are stamped at link time with version, by make build and
// the release builds (-ldflags "-X main.commit=... -X main.date=...").
// A build without them (go install, a plain go build) reports what the Go
// toolchain recorded of the checkout, if it recorded anything.
var commit, date string

// versionLine is what canon --version prints after "canon version": the
// version, then the commit and the date it was built from, when known.
func versionLine(v, commit, date string, read func() (*debug.BuildInfo, bool)) string {
	modified := false
	if commit == "" || date == "" {
		if info, ok := read(); ok {
			for _, s := range info.Settings {
				switch {
				case s.Key == "vcs.revision" && commit == "":
					commit = s.Value
				case s.Key == "vcs.time" && date == "":
					date = s.Value
				case s.Key == "vcs.modified":
					modified = s.Value == "true"
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString(v)
	if commit != "" {
		b.WriteString(", commit " + commit)
		if modified {
			b.WriteString(" (modified)")
		}
	}
	if date != "" {
		b.WriteString(", built " + date)
	}
	return b.String()
}
