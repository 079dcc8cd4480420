package learn

import (
	"reflect"
	"strings"
	"testing"
)

// TestDecideFixtures: a fixture folder whose documents with ids all copy
// documents kept elsewhere is one glob; a copy beside documents of the
// folder's own is named by its path; a folder whose ids nothing else has,
// and a folder named like one that is not (mytestdata), are left alone.
func TestDecideFixtures(t *testing.T) {
	t.Parallel()
	f := &facts{}
	for _, d := range [][2]string{
		{"keps/sig-auth/1687-h/README.md", "KEP-1687"},
		{"pkg/repo/testdata/repos/valid/keps/123-newstyle/README.md", "KEP-1687"},
		{"keps/sig-node/2400-swap/README.md", "KEP-2400"},
		{"pkg/repo/testdata/repos/valid/keps/2400/README.md", "KEP-2400"},
		{"pkg/repo/testdata/repos/valid/keps/README.md", ""},
		{"web/__fixtures__/t-1.md", "T-1"},
		{"web/__fixtures__/t-9.md", "T-9"},
		{"tasks/t-1.md", "T-1"},
		{"internal/testdata/only/a.md", "A-1"},
		{"internal/testdata/only/b.md", "A-2"},
		{"mytestdata/c.md", "KEP-2400"},
	} {
		f.noteIdent(d[0], d[1])
	}
	r := &Result{Evidence: map[string]string{}}
	decideFixtures(f, r)
	want := []string{"pkg/repo/testdata/**", "web/__fixtures__/t-1.md"}
	if !reflect.DeepEqual(r.Learned.Fixtures, want) {
		t.Errorf("fixtures %v, want %v", r.Learned.Fixtures, want)
	}
	if ev := r.Evidence["fixtures"]; !strings.Contains(ev, "KEP-1687 as keps/sig-auth/1687-h/README.md") || !strings.Contains(ev, "web/__fixtures__/t-1.md (T-1 as tasks/t-1.md)") {
		t.Errorf("evidence %q", ev)
	}
	empty := &facts{}
	empty.noteIdent("internal/testdata/a.md", "A-1")
	r = &Result{Evidence: map[string]string{}}
	if decideFixtures(empty, r); r.Learned.Fixtures != nil || r.Evidence["fixtures"] != "" {
		t.Errorf("a repository of fixtures alone: %v", r.Learned.Fixtures)
	}
}
