package learn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
)

// TestSidecarsLearned: a kep.yaml beside the README.md of two folders or
// more is learned, with the number field most of them write as the id;
// its fields count as the README's (a KEP's status values, ordered as
// work moves, open until it ships); one folder, or a file that is no
// mapping of fields, is no convention.
func TestSidecarsLearned(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keps := map[string]string{"1-a": "provisional", "2-b": "implementable", "3-c": "implemented", "4-d": "implemented", "5-e": "withdrawn"}
	for dir, status := range keps {
		write("keps/sig-x/"+dir+"/kep.yaml", "title: "+dir+"\nkep-number: "+strings.Split(dir, "-")[0]+"\nstatus: "+status+"\nstage: beta\n")
	}
	write("other/README.md", "")
	write("other/metadata.yaml", "- a list\n")
	f := newFacts()
	f.root = root
	for dir := range keps {
		m := f.noteSidecar("keps/sig-x/"+dir+"/README.md", nil)
		f.noteStateFields(m)
		var title string
		if json.Unmarshal(m["title"], &title) != nil || title != dir {
			t.Errorf("%s: the README did not take the sidecar's title: %s", dir, m["title"])
		}
	}
	if m := f.noteSidecar("other/README.md", nil); len(m) != 0 {
		t.Errorf("a list read as fields: %v", m)
	}
	if m := f.noteSidecar("keps/sig-x/1-a/notes.md", nil); len(m) != 0 {
		t.Errorf("a page that is no README took the sidecar: %v", m)
	}
	r := decide(f)
	want := []config.Sidecar{{File: "kep.yaml", ID: "kep-number", Prefix: "KEP-"}}
	if !slices.Equal(r.Learned.Sidecars, want) || !strings.Contains(r.Evidence["sidecars"], "kep.yaml beside the README.md of 5 folders") {
		t.Errorf("sidecars %+v (%s)", r.Learned.Sidecars, r.Evidence["sidecars"])
	}
	s := r.Learned.States
	if s == nil || !slices.Equal(s.Open, []string{"provisional", "implementable"}) || !slices.Equal(s.Done, []string{"implemented", "withdrawn"}) {
		t.Errorf("states %+v", s)
	}
	f = newFacts()
	f.root = root
	f.noteSidecar("keps/sig-x/1-a/README.md", nil)
	if r := decide(f); len(r.Learned.Sidecars) != 0 {
		t.Errorf("one folder learned: %+v", r.Learned.Sidecars)
	}
}
