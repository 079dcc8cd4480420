package markdown

import "testing"

func TestDisplayStem(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"keps/sig-node/2400-node-swap/README.md": "2400-node-swap",
		"docs/guide/index.md":                    "guide",
		"docs/guide/Readme.MD":                   "guide",
		"README.md":                              "README",
		"index.md":                               "index",
		"docs/readme-first.md":                   "readme-first",
		"docs/adr/0001-x.md":                     "0001-x",
	} {
		if got := DisplayStem(in); got != want {
			t.Errorf("DisplayStem(%q) = %q, want %q", in, got, want)
		}
	}
}
