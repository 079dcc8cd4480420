package gitsync

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// Verification is what canon verify found: the live index compared, row
// by row, with a rebuild from nothing.
type Verification struct {
	// Differences are dump rows, "- " live or "+ " rebuilt.
	Differences []string `json:"differences"`
	Equal       bool     `json:"equal"`
	Rows        int      `json:"rows"` // rows of the live index compared
	// Edited counts the working-tree files the index has not read as they
	// are (edited, added or deleted since the last sync): the rebuild reads
	// them, so they differ for that reason alone.
	Edited int `json:"edited"`
}

// Verify rebuilds the index into a temporary file beside it and compares
// the two, and the overlays with overlays computed from nothing (ADR-0042). It holds the writer lock throughout, so that the live index
// cannot move while it is compared; the temporary file is removed after
// (and, if this process is killed, by the next session that opens).
func (s *Session) Verify(ctx context.Context) (*Verification, error) {
	if _, err := s.Overlays(ctx); err != nil {
		return nil, err
	}
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	files, err := s.Scope.Walk() // what the rebuild reads, and what has drifted
	if err != nil {
		return nil, err
	}
	edited, err := s.Store.DriftOf(files)
	if err != nil {
		return nil, err
	}
	live, err := s.Store.Dump(ctx)
	if err != nil {
		return nil, err
	}
	tmpPath := VerifyPath(s.Repo.CanonDir())
	defer func() {
		for _, suffix := range []string{"", "-wal", "-shm", ".lock"} {
			os.Remove(tmpPath + suffix)
		}
	}()
	fresh, _, err := index.Open(tmpPath)
	if err != nil {
		return nil, err
	}
	defer fresh.Close()
	if _, err := fresh.Rebuild(ctx, s.Loader, files, nil, nil); err != nil {
		return nil, fmt.Errorf("build the comparison index: %w", err)
	}
	rebuilt, err := fresh.Dump(ctx)
	if err != nil {
		return nil, err
	}
	diff := index.DiffDumps(live, rebuilt)
	overDiff, overRows, err := s.verifyOverlays(ctx)
	if err != nil {
		return nil, err
	}
	diff = append(diff, overDiff...)
	if diff == nil {
		diff = []string{}
	}
	return &Verification{Differences: diff, Equal: len(diff) == 0, Rows: len(live) + overRows, Edited: edited}, nil
}

// ExitCode is 1 when the index differs from the rebuild.
func (v *Verification) ExitCode() int {
	if v.Equal {
		return 0
	}
	return 1
}

// WriteText says whether the index matches, or the first 40 differences
// and what to do about them.
func (v *Verification) WriteText(w io.Writer) error {
	if v.Equal {
		_, err := fmt.Fprintf(w, "the index matches a fresh rebuild (%s rows compared)\n", human.Thousands(v.Rows))
		return err
	}
	if v.Edited > 0 {
		// Not a fault of the index: it has not read these files yet.
		was, them := "was", "it as it is"
		if v.Edited != 1 {
			was, them = "were", "them as they are"
		}
		_, err := fmt.Fprintf(w, "the index differs from a fresh rebuild: %s %s edited since the last sync, and the rebuild reads %s; run canon sync, then verify again\n",
			human.Plural(v.Edited, "working-tree file"), was, them)
		return err
	}
	fmt.Fprintf(w, "the index differs from a fresh rebuild in %d rows (- live, + rebuilt):\n", len(v.Differences))
	for i, d := range v.Differences {
		if i == 40 {
			fmt.Fprintf(w, "  … and %d more (see --json)\n", len(v.Differences)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(d, "\t", " | "))
	}
	_, err := fmt.Fprintln(w, "the index has read every file as it is, so this is a fault: run canon index --full to rebuild it, and report the bug with these rows")
	return err
}
