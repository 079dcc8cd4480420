package workset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoteTargetMustNameADocument: a note about no document, or about a
// name several answer to, is refused when it is appended, not at promote;
// a heading after # is the document's; kind none is a worklog line.
func TestNoteTargetMustNameADocument(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	if _, err := Create(ctx, f.env, "w", CreateOptions{Spec: Spec{Seeds: []string{"A-1"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := AppendNote(ctx, f.env, "w", NoteArgs{Target: "B-1#beta", Text: "beta checked"}); err != nil {
		t.Fatal(err)
	}
	if _, err := AppendNote(ctx, f.env, "w", NoteArgs{Target: "A-1", Kind: "none", Text: "a worklog line"}); err != nil {
		t.Fatal(err)
	}
	_, err := AppendNote(ctx, f.env, "w", NoteArgs{Target: "Z-9", Text: "lost"})
	if err == nil || !strings.Contains(err.Error(), "no document is Z-9") {
		t.Fatalf("a note about no document: %v", err)
	}
	dir, _ := Folder(f.root, "w")
	data, err := os.ReadFile(filepath.Join(dir, NotesFile))
	if err != nil {
		t.Fatal(err)
	}
	if notes := string(data); strings.Contains(notes, "lost") || !strings.Contains(notes, "beta checked") {
		t.Fatalf("notes.md:\n%s", data)
	}
}
