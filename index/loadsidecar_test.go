package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/must"
	"github.com/canon-md/canon/index/scan"
)

// TestLoadSidecar: the loader reads the kep.yaml beside a README.md, and
// only there; a sidecar over config.MaxSidecarBytes, or a link out of the
// repository, is not read, and the document says so; the sidecar's blob is
// part of the document's stamp, so a sidecar edited is a document changed.
func TestLoadSidecar(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		must.OK(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must.OK(t, os.WriteFile(p, []byte(s), 0o644))
	}
	write("keps/a/README.md", "# KEP-1: A\n")
	write("keps/a/kep.yaml", "title: A\nkep-number: 1\nstatus: implementable\n")
	write("keps/big/README.md", "# KEP-2: Big\n")
	write("keps/big/kep.yaml", "title: Big\nnotes: "+strings.Repeat("x", config.MaxSidecarBytes)+"\n")
	write("keps/link/README.md", "# KEP-3: Link\n")
	must.OK(t, os.WriteFile(filepath.Join(outside, "kep.yaml"), []byte("title: Outside\nstatus: implemented\n"), 0o644))
	must.OK(t, os.Symlink(filepath.Join(outside, "kep.yaml"), filepath.Join(root, "keps/link/kep.yaml")))
	write("keps/a/notes.md", "# Notes\n")
	cfg := config.Default()
	cfg.Sidecars = []config.Sidecar{{File: "kep.yaml", ID: "kep-number", Prefix: "KEP-"}}
	ld, scope := NewLoader(root, cfg), scan.NewScope(root, cfg, "")
	load := func(rel string) *Loaded {
		fi, ok := scope.Stat(rel)
		if !ok {
			t.Fatalf("%s: not there", rel)
		}
		return ld.Load(fi)
	}
	a := load("keps/a/README.md")
	if a.Doc.ID != "KEP-1" || a.Doc.State != "implementable" || a.Sidecar == "" || a.Stamp() != a.OID+"+"+a.Sidecar {
		t.Errorf("a: id %q, state %q, sidecar %q, stamp %q", a.Doc.ID, a.Doc.State, a.Sidecar, a.Stamp())
	}
	if n := load("keps/a/notes.md"); n.Doc.State != "" || n.Sidecar != "" {
		t.Errorf("a page beside the README took the sidecar: %q", n.Doc.State)
	}
	for _, rel := range []string{"keps/big/README.md", "keps/link/README.md"} {
		l := load(rel)
		if l.Doc.State != "" || l.Doc.Title == "Outside" || len(l.Doc.Problems) == 0 || !strings.Contains(l.Doc.Problems[0].Message, "kep.yaml beside it is not read") {
			t.Errorf("%s: state %q, title %q, problems %v", rel, l.Doc.State, l.Doc.Title, l.Doc.Problems)
		}
	}
	before := a.Stamp()
	write("keps/a/kep.yaml", "title: A\nkep-number: 1\nstatus: implemented\n")
	if after := load("keps/a/README.md"); after.Stamp() == before || after.OID != a.OID || after.Doc.State != "implemented" {
		t.Errorf("a sidecar edited: stamp %q → %q, state %q", before, after.Stamp(), after.Doc.State)
	}
}
