package gitsync

import (
	"bytes"
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
	"github.com/canon-md/canon/index/learn"
	"github.com/canon-md/canon/index/safepath"
)

// OpenToRebuild opens the repository for a rebuild from nothing (canon
// index --full). An index database SQLite cannot read as canon's
// (index.ErrDamaged) is removed first and opened anew: it is derived, so
// nothing is lost. recreated says that happened. Its wait for another
// process's schema migration ends when ctx does (OpenContext).
func OpenToRebuild(ctx context.Context, dir, who string) (s *Session, recreated bool, err error) {
	s, err = OpenContext(ctx, dir, who)
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
	s, err = OpenContext(ctx, dir, who)
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
	// hooks status); usecase.Init sets it, from hooks.Inspect.
	HooksRun bool `json:"hooks_run"`
	// SuggestWatchAuto: the repository is large and watch.auto is off;
	// init suggests it (ADR-0089) and never turns it on itself.
	SuggestWatchAuto bool `json:"suggest_watch_auto"`
	// Learned is what canon learned from the repository (null when it did
	// not look: init on an existing configuration without --observe).
	Learned *learn.Result `json:"learned"`
	// LearnedBlock is the block written, or with --observe the block that
	// --write would write.
	LearnedBlock string `json:"learned_block"`
	// Observe is init --observe; LearnedChanged says the block differs from
	// the file's.
	Observe        bool `json:"observe"`
	LearnedChanged bool `json:"learned_changed"`

	stats *index.Stats
}

// InitOptions are canon init's flags.
type InitOptions struct {
	// Observe learns from a repository whose configuration exists: a dry
	// run that shows the learned block, unless Write.
	Observe, Write bool
}

// Init writes a configuration when there is none: the commented defaults,
// what canon detected as comments, and the learned block (ADR-0037), with
// the index built from nothing under it; then counts the problems as
// check --all does. With Observe it learns again and shows the block;
// with Write it puts the block in place of the file's (or after it), and
// leaves every other byte of the file as it was.
func (s *Session) Init(ctx context.Context, opt InitOptions) (*Initialized, error) {
	if opt.Write && !opt.Observe {
		return nil, errors.New("--write goes with --observe: canon init --observe --write")
	}
	path := filepath.Join(s.Repo.Root, filepath.FromSlash(config.File))
	old, err := safepath.ReadFile(path, safepath.ConfigLimit, s.Repo.Root)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	in := &Initialized{Config: config.File, DetectedNamespaces: []config.Namespace{}, Observe: opt.Observe}
	var res *Result
	switch {
	case !exists && (!opt.Observe || opt.Write):
		if res, err = s.learnInto(ctx, in, []byte(config.Template+s.Cfg.Namespaces.Detected())); err != nil {
			return nil, err
		}
		in.ConfigWritten = true
	case opt.Observe:
		if res, err = s.Rebuild(ctx, ""); err != nil {
			return nil, err
		}
		base := old
		if !exists {
			base = []byte(config.Template + s.Cfg.Namespaces.Detected())
		}
		next, err := s.learnBlock(ctx, in, base)
		if err != nil {
			return nil, err
		}
		in.LearnedChanged = !bytes.Equal(next, old)
		if opt.Write && in.LearnedChanged {
			again, err := s.writeConfig(ctx, next, false)
			if err != nil {
				return nil, err
			}
			if again != nil {
				res = again
			}
			in.ConfigWritten = true
		}
	default:
		if res, err = s.Rebuild(ctx, ""); err != nil {
			return nil, err
		}
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
	in.Index, in.Documents, in.Skipped, in.Problems = filepath.ToSlash(rel), counts.Documents, counts.Skipped, len(checked.Findings)
	if res != nil && res.Stats != nil {
		in.ElapsedMs, in.stats = res.Stats.Elapsed.Milliseconds(), res.Stats
	}
	for _, n := range s.Cfg.Namespaces {
		if n.From != "" {
			in.DetectedNamespaces = append(in.DetectedNamespaces, n)
		}
	}
	return in, nil
}

// learnInto writes base, builds the index under it, learns, and writes
// base with the learned block; twice when what it learned changes how
// documents are read (Backlog.md's @ values parse only then, and count).
func (s *Session) learnInto(ctx context.Context, in *Initialized, base []byte) (*Result, error) {
	res, err := s.writeConfig(ctx, base, true)
	if err != nil {
		return nil, err
	}
	for pass := 0; pass < 2; pass++ {
		next, err := s.learnBlock(ctx, in, base)
		if err != nil {
			return nil, err
		}
		again, err := s.writeConfig(ctx, next, false)
		if err != nil {
			return nil, err
		}
		if again == nil {
			break // read the same way: nothing more to learn
		}
		res = again
	}
	return res, nil
}

// learnBlock learns from the index as it is, records what it learned in
// in, and returns base with the learned block in place.
func (s *Session) learnBlock(ctx context.Context, in *Initialized, base []byte) ([]byte, error) {
	r, err := s.learn(ctx)
	if err != nil {
		return nil, err
	}
	in.Learned, in.LearnedBlock = r, r.Block()
	return withBlock(base, in.LearnedBlock)
}

func (s *Session) learn(ctx context.Context) (*learn.Result, error) {
	var r *learn.Result
	err := s.Store.Read(func(q index.Querier) error {
		var err error
		r, err = learn.Learn(ctx, q, s.Repo.Root, s.Cfg)
		return err
	})
	return r, err
}

// withBlock is the configuration file data with the learned block in
// place of its own, or after it when it has none.
func withBlock(data []byte, block string) ([]byte, error) {
	start, end, ok, err := config.LearnedBlock(data)
	if err != nil {
		return nil, err
	}
	if ok {
		return append(append(append([]byte{}, data[:start]...), block...), data[end:]...), nil
	}
	if block == "" {
		return data, nil
	}
	out := append([]byte{}, data...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return append(append(out, '\n'), block...), nil
}

// writeConfig checks data parses, writes it atomically as the
// configuration, takes it up, and rebuilds the index when rebuild says so
// or the configuration reads documents otherwise (IndexHash); res is then
// that rebuild, else nil.
func (s *Session) writeConfig(ctx context.Context, data []byte, rebuild bool) (res *Result, err error) {
	if _, err := config.Parse(config.File, data); err != nil {
		return nil, fmt.Errorf("canon would write a configuration that does not parse (%w); nothing was written, please report it", err)
	}
	path := filepath.Join(s.Repo.Root, filepath.FromSlash(config.File))
	if err := safepath.MkdirAll(filepath.Dir(path), 0o755, s.Repo.Root); err != nil {
		return nil, err
	}
	if err := safepath.WriteFile(path, data, 0o644, s.Repo.Root); err != nil {
		return nil, fmt.Errorf("write %s: %w", config.File, err)
	}
	cfg, err := config.Load(s.Repo.Root)
	if err != nil {
		return nil, err
	}
	if cfg.IndexHash() != s.Cfg.IndexHash() {
		rebuild = true
	}
	s.useConfig(cfg)
	if !rebuild {
		return nil, nil
	}
	return s.Rebuild(ctx, "")
}

// WriteText says what init did and what to do next.
func (in *Initialized) WriteText(w io.Writer) error {
	switch {
	case in.Observe && in.ConfigWritten:
		fmt.Fprintf(w, "wrote what canon learned into %s (the learned block; the rest of the file is as it was)\n", in.Config)
	case in.Observe && !in.LearnedChanged:
		fmt.Fprintf(w, "%s already says what canon learns from this repository\n", in.Config)
	case in.Observe:
		fmt.Fprintf(w, "canon init --observe --write would write this learned block into %s (the rest of the file stays as it is):\n\n%s\n", in.Config, in.LearnedBlock)
	case in.ConfigWritten:
		fmt.Fprintf(w, "wrote %s: the commented defaults, and what canon learned from this repository at its end\n", in.Config)
		// The hooks, CI and every clone read it: a file left out of git
		// gives each of them other rules.
		fmt.Fprintf(w, "commit %s: the hooks, CI and every clone check with its rules\n", in.Config)
	default:
		fmt.Fprintf(w, "kept the existing %s\n", in.Config)
	}
	if in.Learned != nil && in.ConfigWritten {
		for _, k := range in.Learned.Keys() {
			fmt.Fprintf(w, "learned %s: %s\n", k, in.Learned.Evidence[k])
		}
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
	if in.stats != nil {
		writeBuilt(w, in.stats)
	}
	if in.Problems > 0 {
		fmt.Fprintf(w, "%s found; list them with canon problems\n", human.Plural(in.Problems, "problem"))
	}
	if in.SuggestWatchAuto {
		fmt.Fprintf(w, "%s documents: each command checks every file for edits first; watch.auto: true in %s starts canon watch in the background so that they ask it instead\n", human.Thousands(in.Documents), in.Config)
	}
	if in.HooksRun {
		return nil
	}
	_, err := fmt.Fprintln(w, "next: canon hooks install, so that commits and checkouts keep the index fresh")
	return err
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
