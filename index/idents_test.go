package index

import (
	"testing"

	"github.com/canon-md/canon/index/config"
)

func TestCollisions(t *testing.T) {
	cfg := config.Default()
	docs := []IdentDoc{
		{Path: "tasks/a.md", Ident: "KB-1"},
		{Path: "tasks/b.md", Ident: "kb-1"},   // another item, another case: a collision
		{Path: "archive/c.md", Ident: "KB-1"}, // archived: its id is free again
		{Path: "tasks/d.md", Ident: "KB-2", UID: "01a"},
		{Path: "other/d.md", Ident: "KB-2", UID: "01A"}, // one item in two places
		{Path: "tasks/e.md", Ident: "KB-3"},
	}
	got := Collisions(docs, cfg)
	if len(got) != 1 || got[0].Ident != "KB-1" || len(got[0].Docs) != 2 || got[0].Docs[0].Path != "tasks/a.md" || got[0].Docs[1].Path != "tasks/b.md" {
		t.Fatalf("Collisions = %+v, want KB-1 in tasks/a.md and tasks/b.md", got)
	}
}
