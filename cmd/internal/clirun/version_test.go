package clirun

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go install module@version", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.1"}}, "0.3.1"},
		{"pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123120000-abcdef123456+dirty"}}, "0.0.0-20261123120000-abcdef123456+dirty"},
		{"devel with VCS", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "0.1.0-dev+0123456789ab-dirty"},
		{"nothing recorded", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.1.0-dev"},
	} {
		got := buildVersion("0.1.0-dev", func() (*debug.BuildInfo, bool) { return tc.info, true })
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := buildVersion("0.1.0-dev", func() (*debug.BuildInfo, bool) { return nil, false }); got != "0.1.0-dev" {
		t.Errorf("no build info: %q", got)
	}
}
