package overlay

import (
	"testing"

	"github.com/canon-md/canon/index/internal/sqlstore"
)

// TestPairMoves: a ref's deletion of HEAD's document and its addition of
// the same blob, or of a document with the same id, are one move; other
// deletions and additions stay as they are, and refs are not mixed.
func TestPairMoves(t *testing.T) {
	here := func(path, id string) *HereDoc { return &HereDoc{DocRef: sqlstore.DocRef{Path: path, ID: id}} }
	row := func(ref, path, change, oid, base, id string, h *HereDoc) OverlayDoc {
		return OverlayDoc{RefDoc: RefDoc{Ref: ref, Path: path, Change: change, OID: oid, BaseOID: base, ID: id}, Here: h}
	}
	over := []OverlayDoc{
		row("a", "new/t1.md", RefAdded, "b2", "", "T-1", nil),    // T-1 moved and edited: by id
		row("a", "notes/plan-2.md", RefAdded, "p1", "", "", nil), // the plan moved unchanged: by blob
		row("a", "notes/plan.md", RefDeleted, "", "p1", "", here("notes/plan.md", "")),
		row("a", "t1.md", RefDeleted, "", "b1", "", here("t1.md", "T-1")),
		row("a", "t3.md", RefDeleted, "", "b3", "", here("t3.md", "T-3")), // deleted
		row("a", "t5.md", RefAdded, "b5", "", "T-5", nil),                 // new
		row("b", "t9.md", RefAdded, "b3", "", "T-9", nil),                 // another ref: not t3's move
	}
	got := pairMoves(over)
	want := map[string]string{
		"a new/t1.md":       "moved from t1.md",
		"a notes/plan-2.md": "moved from notes/plan.md",
		"a t3.md":           "deleted from ",
		"a t5.md":           "added from ",
		"b t9.md":           "added from ",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d: %+v", len(got), len(want), got)
	}
	for _, o := range got {
		if w := want[o.Ref+" "+o.Path]; w != o.Change+" from "+o.MovedFrom {
			t.Errorf("%s %s: %s from %q, want %s", o.Ref, o.Path, o.Change, o.MovedFrom, w)
		}
		if o.Change == RefMoved && (o.Here == nil || o.Here.Path != o.MovedFrom) {
			t.Errorf("%s: the move is not compared with HEAD's document at %s", o.Path, o.MovedFrom)
		}
	}
}
