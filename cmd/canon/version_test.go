package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	vcs := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef"},
		{Key: "vcs.time", Value: "2026-11-28T10:00:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, tc := range []struct {
		name, commit, date string
		info               *debug.BuildInfo
		want               string
	}{
		{"stamped at link time", "abc123", "2026-11-01T00:00:00Z", vcs, "1.2.3, commit abc123, built 2026-11-01T00:00:00Z"},
		{"go build in a checkout", "", "", vcs, "1.2.3, commit 0123456789abcdef (modified), built 2026-11-28T10:00:00Z"},
		{"go install module@version", "", "", &debug.BuildInfo{}, "1.2.3"},
		{"no build info", "", "", nil, "1.2.3"},
	} {
		read := func() (*debug.BuildInfo, bool) { return tc.info, tc.info != nil }
		if got := versionLine("1.2.3", tc.commit, tc.date, read); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
