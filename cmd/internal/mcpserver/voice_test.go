package mcpserver

import "testing"

// TestInToolWords: canon's own hints are said in the tools' words; a
// document's text a pack quotes is left as written, even where it says
// the same.
func TestInToolWords(t *testing.T) {
	for _, c := range []struct{ tool, in, want string }{
		{"ready", "31 ready (2 listed, 29 more: --limit N or --all), 3 blocked (canon blocked)\n",
			"31 ready (2 listed, 29 more: limit: N or all: true), 3 blocked (the blocked tool)\n"},
		{"item_set", "wrote a.md; nothing is committed (--commit commits it alone)\n", "wrote a.md; nothing is committed (commit: true commits it alone)\n"},
		{"context", "## Notes\nrun it (canon ready) then --limit N or --all)\nAbout 641 tokens of the budget unused: every section in reach is quoted (--depth reaches further).\n",
			"## Notes\nrun it (canon ready) then --limit N or --all)\nAbout 641 tokens of the budget unused: every section in reach is quoted (the neighbors tool, with depth, reaches further).\n"},
		{"search", "a (see --json) b\n", "a (see --json) b\n"},
		// A title in ready's list is a document's words.
		{"ready", "T-1  P1  Ready  Document (canon blocked) output  [task]\n1 ready, 0 blocked (canon blocked)\n",
			"T-1  P1  Ready  Document (canon blocked) output  [task]\n1 ready, 0 blocked (the blocked tool)\n"},
	} {
		if got := inToolWords(c.tool, c.in); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.tool, got, c.want)
		}
	}
}
