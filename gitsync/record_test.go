package gitsync

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/canon-md/canon/index"
)

// TestCheckAllSaysACountNotRecorded: when the count of problems cannot
// be recorded for canon status, check --all still answers and the person
// hears why status lags; the error is not dropped.
func TestCheckAllSaysACountNotRecorded(t *testing.T) {
	ctx := context.Background()
	_, s := committed(t, map[string]string{"a.md": "# A\n\n[gone](gone.md)\n"})
	if _, err := s.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	old := setMeta
	t.Cleanup(func() { setMeta = old })
	setMeta = func(*index.Store, context.Context, map[string]string) error {
		return errors.New("database is locked")
	}
	var notes []string
	s.Note = func(msg string) { notes = append(notes, msg) }
	res, err := s.CheckAll(ctx)
	if err != nil || len(res.Findings) != 1 {
		t.Fatalf("CheckAll = %+v, %v; want its one finding", res, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "the problem count was not recorded") || !strings.Contains(notes[0], "database is locked") {
		t.Fatalf("notes = %q; want the count not recorded, with why", notes)
	}
}
