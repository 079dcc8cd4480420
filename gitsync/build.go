package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
)

// OpenToRebuild opens the repository for a rebuild from nothing (canon
// index --full). An index database SQLite cannot read as canon's
// (index.ErrDamaged) is removed first and opened anew: it is derived, so
// nothing is lost. recreated says that happened.
func OpenToRebuild(dir, who string) (s *Session, recreated bool, err error) {
	s, err = Open(dir, who)
	if err == nil || !errors.Is(index.Explain(err, ""), index.ErrDamaged) {
		return s, false, err
	}
	repo, rerr := Discover(dir)
	if rerr != nil {
		return nil, false, err
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(repo.IndexPath() + suffix)
	}
	s, err = Open(dir, who)
	return s, err == nil, err
}

// Built is a rebuild from nothing: canon index --full.
type Built struct{ *Result }

// JSON is the documented shape of canon index --full.
func (b Built) JSON() any {
	return struct {
		Action    string `json:"action"`
		Documents int    `json:"documents"`
		ElapsedMs int64  `json:"elapsed_ms"`
		Head      string `json:"head"`
		Skipped   int    `json:"skipped_files"`
	}{b.Action, b.Stats.Documents, b.Stats.Elapsed.Milliseconds(), b.To, b.Stats.Skipped}
}

// WriteText is the build's one line.
func (b Built) WriteText(w io.Writer) error {
	writeBuilt(w, b.Stats)
	return nil
}

// Initialized is what canon init did.
type Initialized struct {
	Config        string `json:"config"`
	ConfigWritten bool   `json:"config_written"`
	// DetectedNamespaces are the namespaces canon found (Kano products),
	// empty when none.
	DetectedNamespaces []config.Namespace `json:"detected_namespaces"`
	Documents          int                `json:"documents"`
	ElapsedMs          int64              `json:"elapsed_ms"`
	Index              string             `json:"index"` // relative to the root when inside it, as status says it
	// Problems is check --all's count: one set of rules everywhere.
	Problems int `json:"problems"`
	Skipped  int `json:"skipped_files"`
	// HooksRun says canon runs on the next commit and checkout (canon
	// hooks status); the front end that can ask sets it.
	HooksRun bool `json:"hooks_run"`

	stats *index.Stats
}

// Init writes a commented default configuration when there is none (the
// defaults, with what canon detected as comments), builds the index from
// nothing and counts the problems as check --all does.
func (s *Session) Init(ctx context.Context) (*Initialized, error) {
	written, err := writeDefaultConfig(s.Repo.Root, s.Cfg.Namespaces.Detected())
	if err != nil {
		return nil, err
	}
	res, err := s.Rebuild(ctx, "")
	if err != nil {
		return nil, err
	}
	counts, err := s.Store.Counts(ctx)
	if err != nil {
		return nil, err
	}
	checked, err := s.CheckAll(ctx)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(s.Repo.Root, s.Store.Path())
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = s.Store.Path()
	}
	in := &Initialized{
		Config: config.File, ConfigWritten: written, Index: filepath.ToSlash(rel), DetectedNamespaces: []config.Namespace{},
		Documents: counts.Documents, Skipped: counts.Skipped, Problems: len(checked.Findings),
		ElapsedMs: res.Stats.Elapsed.Milliseconds(), stats: res.Stats,
	}
	for _, n := range s.Cfg.Namespaces {
		if n.From != "" {
			in.DetectedNamespaces = append(in.DetectedNamespaces, n)
		}
	}
	return in, nil
}

// WriteText says what init did and what to do next.
func (in *Initialized) WriteText(w io.Writer) error {
	if in.ConfigWritten {
		fmt.Fprintf(w, "wrote %s (every value in it is a default; edit what you need)\n", in.Config)
		// The hooks, CI and every clone read it: a file left out of git
		// gives each of them other rules.
		fmt.Fprintf(w, "commit %s: the hooks, CI and every clone check with its rules\n", in.Config)
	} else {
		fmt.Fprintf(w, "kept the existing %s\n", in.Config)
	}
	for _, n := range in.DetectedNamespaces {
		states := "Kano's default states"
		switch {
		case n.Unchecked:
			states = n.Note
		case len(n.States) > 0:
			states = strings.Join(n.States, ", ")
		}
		fmt.Fprintf(w, "Kano product %s in %s: %s\n", n.Name, n.Path, states)
	}
	writeBuilt(w, in.stats)
	if in.Problems > 0 {
		fmt.Fprintf(w, "%s found; list them with canon problems\n", human.Plural(in.Problems, "problem"))
	}
	if in.HooksRun {
		return nil
	}
	_, err := fmt.Fprintln(w, "next: canon hooks install, so that commits and checkouts keep the index fresh")
	return err
}

// writeDefaultConfig writes .canon/config.yaml unless it exists,
// atomically: the defaults, and what canon detected as comments.
func writeDefaultConfig(root, detected string) (bool, error) {
	path := filepath.Join(root, filepath.FromSlash(config.File))
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	if err := safepath.MkdirAll(filepath.Dir(path), 0o755, root); err != nil {
		return false, err
	}
	if err := safepath.WriteFile(path, []byte(config.Template+detected), 0o644, root); err != nil {
		return false, fmt.Errorf("write %s: %w", config.File, err)
	}
	return true, nil
}

// Optimized is what canon index --optimize did: the full-text index merged
// into one segment.
type Optimized struct{ *index.Merged }

// JSON is the documented shape of canon index --optimize.
func (o Optimized) JSON() any {
	return struct {
		SegmentsBefore int   `json:"segments_before"`
		SegmentsAfter  int   `json:"segments_after"`
		ElapsedMs      int64 `json:"elapsed_ms"`
	}{o.Before, o.After, o.Elapsed.Milliseconds()}
}

// WriteText is its one line.
func (o Optimized) WriteText(w io.Writer) error {
	if o.Before <= 1 {
		_, err := fmt.Fprintf(w, "the full-text index is one segment already: nothing to merge\n")
		return err
	}
	_, err := fmt.Fprintf(w, "merged the full-text index from %d segments into %d in %s\n", o.Before, o.After, human.Duration(o.Elapsed))
	return err
}

// Optimize merges the full-text index into one segment, under the writer
// lock, without catching up: searches then read each term once
// (index.Store.MergeFullText).
func (s *Session) Optimize(ctx context.Context) (Optimized, error) {
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return Optimized{}, err
	}
	defer unlock()
	m, err := s.Store.MergeFullText(ctx)
	return Optimized{m}, err
}
