package gitsync

import "testing"

// TestSideVersion: a README's version beside a sidecar is both blob ids,
// and which sidecar past the first; split, it gives them back.
func TestSideVersion(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		readme, side string
		i            int
		want         string
	}{
		{"aa", "", 0, "aa"},
		{"", "bb", 0, ""},
		{"aa", "bb", 0, "aa+bb"},
		{"aa", "bb", 2, "aa+bb#2"},
	} {
		v := sideVersion(c.readme, c.side, c.i)
		if v != c.want {
			t.Errorf("sideVersion(%q, %q, %d) = %q, want %q", c.readme, c.side, c.i, v, c.want)
		}
		r, s, i := splitVersion(v)
		if c.readme != "" && (r != c.readme || s != c.side || i != c.i) {
			t.Errorf("splitVersion(%q) = %q, %q, %d", v, r, s, i)
		}
	}
}
