package markdown

import (
	"strings"
	"testing"
)

// TestSidecarFields: a KEP's README takes the title, state and id of the
// kep.yaml beside it; its own frontmatter wins where it sets a field, and
// the sidecar's fields point at no line of the README.
func TestSidecarFields(t *testing.T) {
	t.Parallel()
	v, err := ParseSidecar([]byte("title: Node swap\nkep-number: 2400\nstatus: implementable\nstage: beta\nmilestone:\n  beta: \"v1.28\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	side := &Sidecar{Fields: v, IDField: "kep-number", IDPrefix: "KEP-"}
	d := ParseWith("keps/sig-node/2400-node-swap/README.md", []byte("# KEP-2400: Node system swap support\n\n## Summary\n"), &Options{}, side)
	if d.ID != "KEP-2400" || d.Title != "Node swap" || d.State != "implementable" || d.IDLine != 0 {
		t.Errorf("id %q (line %d), title %q, state %q", d.ID, d.IDLine, d.Title, d.State)
	}
	if got := string(d.FrontmatterJSON()); !strings.Contains(got, `"stage":"beta"`) || !strings.Contains(got, `"milestone":{"beta":"v1.28"}`) {
		t.Errorf("frontmatter %s", got)
	}
	d = ParseWith("a/README.md", []byte("---\nstatus: rejected\nid: X-1\n---\n# A\n"), &Options{}, side)
	if d.State != "rejected" || d.ID != "X-1" || d.Title != "Node swap" {
		t.Errorf("the README's own fields lose: state %q, id %q, title %q", d.State, d.ID, d.Title)
	}
}

// TestSidecarBounds: a sidecar is attacker input, read with the bounds of
// a frontmatter; one that is no mapping of fields gives none.
func TestSidecarBounds(t *testing.T) {
	t.Parallel()
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	for name, data := range map[string]string{
		"a list":       "- a\n- b\n",
		"a scalar":     "just text\n",
		"broken":       "title: [unclosed\n",
		"too large":    "title: x\nbody: " + strings.Repeat("y", MaxFrontmatterBytes) + "\n",
		"alias bomb":   bomb,
		"deep nesting": strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
	} {
		v, err := ParseSidecar([]byte(data))
		if name == "alias bomb" && err == nil {
			if n := len(v.AppendJSON(nil)); n > 1<<20 {
				t.Errorf("an alias bomb expands to %d bytes", n)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: read as %s", name, v.AppendJSON(nil))
		}
	}
	zeros, err := ParseSidecar([]byte("title: Process\nkep-number: 0000\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := ParseWith("keps/sig-a/0000-kep-process/README.md", []byte("# P\n"), &Options{}, &Sidecar{Fields: zeros, IDField: "kep-number", IDPrefix: "KEP-"}); d.ID != "" {
		t.Errorf("kep-number 0000 gave id %q; it is a placeholder", d.ID)
	}
	if d := ParseWith("a/README.md", []byte("# A\n"), &Options{}, &Sidecar{IDField: "n"}); d.ID != "" || d.Title != "A" {
		t.Errorf("no fields gave id %q, title %q", d.ID, d.Title)
	}
}

// TestSidecarFieldPlace: a sidecar read with its places names each
// field's line of the sidecar itself (no opening --- line above it), a
// list's item by its text, and nothing for a field it does not hold.
func TestSidecarFieldPlace(t *testing.T) {
	t.Parallel()
	v, err := SidecarPlaces([]byte("title: Node swap\nkep-number: 2400\nreplaces:\n  - \"/keps/a\"\n  - /keps/b\nstage: beta\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, value string
		line, col  int
	}{
		{"kep-number", "2400", 2, 13},
		{"replaces", "/keps/b", 5, 5},
		{"replaces", "/keps/a", 4, 5},
		{"replaces", "/keps/c", 3, 1},
		{"stage", "beta", 6, 8},
		{"owning-sig", "x", 0, 0},
	} {
		if line, col := FieldPlace(v, c.key, c.value); line != c.line || col != c.col {
			t.Errorf("%s %s at %d:%d, want %d:%d", c.key, c.value, line, col, c.line, c.col)
		}
	}
}
