package markdown

import "testing"

func TestFileTitle(t *testing.T) {
	for p, want := range map[string]string{
		"text/0617-rfc-stages.md":                "Rfc stages",
		"text/0398-RouteInfo-Metadata.md":        "RouteInfo Metadata",
		"keps/sig-node/2400-node-swap/README.md": "Node swap",
		"rfcs/0011.md":                           "0011",
		"docs/0013.1_bridge_design.md":           "Bridge design",
		"notes/übersicht.md":                     "Übersicht",
	} {
		if got := FileTitle(p); got != want {
			t.Errorf("FileTitle(%q) = %q, want %q", p, got, want)
		}
	}
}

// An RFC that opens with "# Summary" is titled by its file; one whose
// frontmatter or first heading names it keeps that title.
func TestGenericFirstHeading(t *testing.T) {
	for _, c := range []struct{ path, src, want string }{
		{"text/0011-improved-cp-syntax.md", "---\nstage: released\n---\n\n# Summary\n\nImprove it.\n\n# Motivation\n", "Improved cp syntax"},
		{"text/0012-x.md", "# summary:\n", "X"},
		{"text/0013-y.md", "---\ntitle: Why\n---\n# Summary\n", "Why"},
		{"text/0014-z.md", "# Yieldable Named Blocks\n\n# Summary\n", "Yieldable Named Blocks"},
		{"docs/guide.md", "## Overview\n", ""},
	} {
		if got := Parse(c.path, []byte(c.src), &Options{}).Title; got != c.want {
			t.Errorf("%s: title %q, want %q", c.path, got, c.want)
		}
	}
}
