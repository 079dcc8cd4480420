package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/check"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// side is one state of the repository a check looks at: the index with a
// batch laid over it in a transaction that is rolled back, or (batch nil)
// the index as it is.
type side struct {
	batch *index.Batch
	tree  *GitTree
	// sidecar reads the sidecar beside a README as the side has it
	// (check.Input.ReadSidecar); nil: as the working tree has it.
	sidecar func(readme string) (string, []byte)
}

// StagedAhead is the staged set asked of git before canon opens its index:
// the diff runs while the session opens, and it is most of a pre-commit
// check's time. git cat-file --batch is started only when a blob must be
// read from git or a path looked up that the objects cannot answer in
// process (revTrees): usually the working tree holds the staged blob, and
// a second git starting beside the diff only took a core from it.
type StagedAhead struct {
	repo    *Repo
	ctx     context.Context
	cat     *CatFile
	catOnce sync.Once
	trees   *revTrees
	done    chan struct{}
	changes []StagedChange
	err     error
	close   sync.Once
}

// AskStaged starts git diff --cached (and git cat-file) in the repository
// that holds dir; CheckStaged takes the answer. nil when dir is in no
// repository (the session's open says why).
func AskStaged(ctx context.Context, dir string) *StagedAhead {
	repo, err := Discover(dir)
	if err != nil {
		return nil
	}
	return repo.askStaged(ctx)
}

func (r *Repo) askStaged(ctx context.Context) *StagedAhead {
	a := &StagedAhead{repo: r, ctx: ctx, trees: newRevTrees(r), done: make(chan struct{})}
	go func() {
		defer close(a.done)
		// The trees are this goroutine's until done: the diff in process
		// reads HEAD's root tree, which the link lookups start from.
		if changes, ok := r.stagedInProcess(a.trees); ok {
			a.changes = changes
			return
		}
		a.changes, a.err = r.Staged(ctx)
	}()
	return a
}

// catFile is the git cat-file --batch of the check, started on first use;
// nil when it cannot start (each lookup then starts git on its own).
func (a *StagedAhead) catFile() *CatFile {
	a.catOnce.Do(func() {
		if cat, err := a.repo.StartCatFile(a.ctx); err == nil {
			a.cat = cat
		}
	})
	return a.cat
}

// Close ends what AskStaged started (again: a no-op).
func (a *StagedAhead) Close() {
	if a != nil {
		<-a.done
		a.close.Do(func() {
			a.catOnce.Do(func() {}) // none starts after this
			a.cat.Close()
			a.trees.Close()
		})
	}
}

// CheckStaged validates what the next commit records: the staged blobs,
// against the repository as it will be after the commit — the index with
// the staged additions, modifications and deletions laid over it, never
// written. Documents whose links a staged deletion or rename breaks are
// checked too. With newOnly (the pre-commit hook), it reports only the
// problems the commit introduces: when the commit's state has any, the same
// documents are checked with the staged paths as HEAD has them, and what
// both states have is counted in Old instead (check.Introduced). ahead is
// the diff AskStaged started (nil: ask now).
func (s *Session) CheckStaged(ctx context.Context, newOnly bool, ahead *StagedAhead) (*check.Result, error) {
	if ahead == nil {
		ahead = s.Repo.askStaged(ctx)
	}
	defer ahead.Close()
	<-ahead.done
	if ahead.err != nil {
		return nil, fmt.Errorf("read the staged changes: %w", ahead.err)
	}
	res, err := s.checkStagedDocs(ctx, newOnly, ahead)
	if err != nil {
		return nil, err
	}
	res.Findings = append(trackedWorksets(ahead.changes), res.Findings...)
	return res, nil
}

// trackedWorksets reports each changed file under the worksets' folder
// that git records (an addition or a modification): a workset git tracks
// is foreign to every other clone, and canon refuses to open it.
func trackedWorksets(changes []StagedChange) []check.Finding {
	var out []check.Finding
	for _, c := range changes {
		if c.OID != "" && index.InWorksetDir(c.Path) {
			out = append(out, index.TrackedWorksetProblem(c.Path))
		}
	}
	return out
}

// checkStagedDocs is CheckStaged's part for the staged documents.
func (s *Session) checkStagedDocs(ctx context.Context, newOnly bool, ahead *StagedAhead) (*check.Result, error) {
	staged := ahead.changes
	after := index.NewBatch(s.Cfg)
	stagedSet := make(map[string]bool, len(staged))
	var docs []StagedChange
	for _, c := range staged {
		stagedSet[c.Path] = c.OID != ""
		if s.Scope.IsDocumentPath(c.Path) {
			docs = append(docs, c)
		}
	}
	sides, err := s.sidecarsOfStaged(ctx, staged, docs)
	if err != nil {
		return nil, fmt.Errorf("read the staged sidecars: %w", err)
	}
	docs = append(docs, sides.added...)
	for _, c := range docs {
		if c.OID == "" {
			after.Deletes = append(after.Deletes, c.Path)
			continue
		}
		l, err := s.loadBeside(ctx, ahead.catFile, c.Path, c.OID, sides.after[c.Path], true)
		if err != nil {
			return nil, fmt.Errorf("read staged %s: %w", c.Path, err)
		}
		after.Upserts = append(after.Upserts, l)
	}
	if after.Empty() {
		return &check.Result{NewOnly: newOnly}, nil
	}
	afterSide := side{after, &GitTree{Repo: s.Repo, Staged: stagedSet, startCat: ahead.catFile, trees: ahead.trees}, s.sidecarIn(ctx, ahead.catFile, sides.after)}
	if !newOnly {
		return s.checkChange(ctx, afterSide, nil)
	}
	// The state before the commit, read only when the commit's has
	// findings: with none there is nothing to tell old from new.
	before := func() (*side, error) {
		b := index.NewBatch(s.Cfg)
		for _, c := range docs {
			if c.From == "" {
				b.Deletes = append(b.Deletes, c.Path)
				continue
			}
			l, err := s.loadBeside(ctx, ahead.catFile, c.Path, c.From, sides.before[c.Path], false)
			if err != nil {
				return nil, fmt.Errorf("read %s as HEAD has it: %w", c.Path, err)
			}
			b.Upserts = append(b.Upserts, l)
		}
		return &side{b, &GitTree{Repo: s.Repo, Rev: "HEAD", startCat: ahead.catFile, trees: ahead.trees, NoSuggest: true}, s.sidecarIn(ctx, ahead.catFile, sides.before)}, nil
	}
	return s.checkChangeLazy(ctx, afterSide, before)
}

// CheckArgs say what canon check validates: every document (All), what a
// branch changed since its merge base with NewFrom, the working-tree files
// at Paths (repository-relative), or else what is staged (Staged is the
// diff AskStaged started, or nil).
type CheckArgs struct {
	All     bool
	NewFrom string
	Paths   []string
	Staged  *StagedAhead
}

// Validate refuses arguments that ask for two checks at once: canon check
// and the MCP tool check both call it before Check.
func (a CheckArgs) Validate() error {
	switch {
	case a.All && len(a.Paths) > 0:
		return &ArgsError{"--all checks everything; give either --all or paths, not both"}
	case a.NewFrom != "" && (a.All || len(a.Paths) > 0):
		return &ArgsError{"--new-from checks what a branch changed; give it without --all and without paths"}
	}
	return nil
}

// Check runs the check the arguments ask for. Every document and a
// branch's change are checked in the working tree as it is: the index is
// reconciled with it first. What is staged is checked new-only, as the
// pre-commit hook does.
func (s *Session) Check(ctx context.Context, a CheckArgs) (*check.Result, error) {
	switch {
	case a.All || a.NewFrom != "":
		if _, err := s.Reconcile(ctx); err != nil {
			return nil, err
		}
		if a.NewFrom != "" {
			return s.CheckNewFrom(ctx, a.NewFrom)
		}
		return s.CheckAll(ctx)
	case len(a.Paths) > 0:
		return s.CheckPaths(ctx, a.Paths)
	}
	return s.CheckStaged(ctx, true, a.Staged)
}

// CheckPlanned checks files as a writer (promote, check --fix) would leave
// them, path → content, without writing: the contents laid over the index
// in a transaction that is rolled back, as the pre-commit check lays the
// staged blobs. Findings are only the problems the writes would introduce;
// Before holds what the files have now when that had to be read.
func (s *Session) CheckPlanned(ctx context.Context, files map[string][]byte) (*check.Result, error) {
	b := index.NewBatch(s.Cfg)
	var paths []string
	for p := range files {
		paths = append(paths, s.documentOf(p))
	}
	paths = Distinct(paths)
	sort.Strings(paths)
	for _, p := range paths {
		content, ok := files[p]
		if !ok { // a README whose sidecar alone is planned
			var err error
			if content, err = s.Scope.ReadDocument(p); err != nil {
				return nil, err
			}
		}
		b.Upserts = append(b.Upserts, s.Loader.FromContentPlanned(scan.FileInfo{Path: p}, content, files))
	}
	tree := &GitTree{Repo: s.Repo}
	now := &side{tree: tree}
	return s.checkChangeLazy(ctx, side{batch: b, tree: tree}, func() (*side, error) { return now, nil })
}

// CheckNewFrom validates the documents that differ between the merge base
// of HEAD and rev and the working tree (a pull request's change, in CI),
// reporting only the problems the change introduces: the working tree's
// problems minus those the merge base has, matched as CheckStaged does.
// The caller reconciles the index with the working tree first.
func (s *Session) CheckNewFrom(ctx context.Context, rev string) (*check.Result, error) {
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%w: %s is an option, not a revision; name a branch, tag or commit", ErrBadRevision, rev)
	}
	out, err := s.Repo.Git(ctx, "merge-base", "--end-of-options", "HEAD", rev)
	if err != nil {
		if _, verr := s.Repo.Git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}"); verr != nil {
			return nil, fmt.Errorf("%w: %s names no commit here; fetch it first (git fetch origin %s), or name a branch, tag or commit", ErrBadRevision, rev, rev)
		}
		return nil, fmt.Errorf("%w: HEAD and %s have no common ancestor; name a revision this branch grew from", ErrBadRevision, rev)
	}
	base := strings.TrimSpace(string(out))
	cat, err := s.Repo.StartCatFile(ctx)
	if err != nil {
		cat = nil
	}
	defer cat.Close()
	trees := newRevTrees(s.Repo)
	defer trees.Close()
	// Tracked files that differ between the merge base and the working
	// tree; the base's side of each is read from git.
	raw, err := s.Repo.Git(ctx, "diff", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff", "--end-of-options", base, "--")
	if err != nil {
		return nil, err
	}
	changes, err := parseRaw(raw)
	if err != nil {
		return nil, err
	}
	before := index.NewBatch(s.Cfg)
	var paths []string
	for _, c := range changes {
		if !s.Scope.IsDocumentPath(c.Path) {
			continue
		}
		paths = append(paths, c.Path)
		if c.From == "" {
			before.Deletes = append(before.Deletes, c.Path)
			continue
		}
		l, err := s.loadBlob(ctx, cat, c.Path, c.From, s.Loader.FromContent)
		if err != nil {
			return nil, fmt.Errorf("read %s as %s has it: %w", c.Path, shortOID(base), err)
		}
		before.Upserts = append(before.Upserts, l)
	}
	res := &check.Result{NewOnly: true, Base: base}
	if len(paths) > 0 {
		if res, err = s.checkChange(ctx, side{tree: &GitTree{Repo: s.Repo}, batch: nil}, &side{batch: before, tree: &GitTree{Repo: s.Repo, Rev: base, Cat: cat, trees: trees, NoSuggest: true}}, paths...); err != nil {
			return nil, err
		}
		res.Base = base
	}
	twice, err := s.mintedTwice(ctx, base, rev, changes, cat)
	if err != nil {
		return nil, err
	}
	res.Findings = append(append(trackedWorksets(changes), twice...), res.Findings...)
	return res, nil
}

// ErrBadRevision is a revision --new-from cannot use.
var ErrBadRevision = errors.New("bad revision")

func shortOID(oid string) string {
	if len(oid) > 10 {
		return oid[:10]
	}
	return oid
}

// MaxCheckPaths is the most files CheckPaths validates by name, and
// MaxCheckBytes the most text they hold together: their parsed texts are
// laid over the index in one transaction, about twice their size in
// memory and 0.3 s a megabyte (20 files of 4.2 MB: 186 MB, 27 s on a
// loaded 2-core machine). A change that names more is checked better
// whole (every document, or a branch's change), from the index.
const (
	MaxCheckPaths = 200
	MaxCheckBytes = 32_000_000
)

// TooManyPathsError is a CheckPaths asked for more than MaxCheckPaths
// files (duplicates counted once) or MaxCheckBytes of them.
type TooManyPathsError struct {
	Given int
	Bytes int64 // when the files are too large together
}

func (e *TooManyPathsError) Error() string {
	if e.Bytes > 0 {
		return fmt.Sprintf("the %d files named hold %.1f MB; at most %d MB are checked by name", e.Given, float64(e.Bytes)/1e6, MaxCheckBytes/1_000_000)
	}
	return fmt.Sprintf("%d files named; at most %d are checked by name", e.Given, MaxCheckPaths)
}

// CheckPaths validates the given working-tree files (paths relative to the
// repository root) as they are on disk, each once however often named. A
// folder stands for the documents canon indexes under it.
func (s *Session) CheckPaths(ctx context.Context, paths []string) (*check.Result, error) {
	paths, err := s.documentsNamed(Distinct(paths))
	if err != nil {
		return nil, err
	}
	if len(paths) > MaxCheckPaths {
		return nil, &TooManyPathsError{Given: len(paths)}
	}
	files := make([]scan.FileInfo, 0, len(paths))
	var size int64
	for _, p := range paths {
		fi, ok := s.Scope.Stat(p)
		if !ok {
			return nil, fmt.Errorf("%s does not exist; name Markdown files or folders", p)
		}
		if !s.Scope.IsDocumentPath(p) {
			return nil, fmt.Errorf("%s is not a document canon indexes (not a .md file, outside the roots, or excluded)", p)
		}
		if fi.Size <= int64(s.Cfg.MaxFileSize) { // a larger one is not read: it is reported as too large
			size += fi.Size
		}
		files = append(files, fi)
	}
	if size > MaxCheckBytes {
		return nil, &TooManyPathsError{Given: len(paths), Bytes: size}
	}
	b := index.NewBatch(s.Cfg)
	for _, fi := range files {
		if l := s.Loader.Load(fi); l != nil {
			b.Upserts = append(b.Upserts, l)
		}
	}
	return s.checkChange(ctx, side{batch: b, tree: &GitTree{Repo: s.Repo}}, nil)
}

// documentsNamed replaces each folder among paths (repository paths; "."
// the root) with the documents under it, as a walk of the roots finds
// them: ignored files, files outside the roots and linked folders are not
// documents. A folder that holds none is an error.
func (s *Session) documentsNamed(paths []string) ([]string, error) {
	var out []string
	var docs []scan.FileInfo
	walked := false
	for _, p := range paths {
		// Nothing outside the repository is looked at, not even whether
		// it exists (the MCP tool passes paths as the agent wrote them).
		p, err := safepath.CleanRel(p)
		if err != nil {
			return nil, err
		}
		fi, err := os.Lstat(filepath.Join(s.Repo.Root, filepath.FromSlash(p)))
		if err != nil || !fi.IsDir() {
			out = append(out, p) // a file, or what CheckPaths says is missing
			continue
		}
		if !walked {
			if docs, err = s.Scope.Walk(); err != nil {
				return nil, err
			}
			walked = true
		}
		n := len(out)
		for _, d := range docs {
			if p == "." || strings.HasPrefix(d.Path, p+"/") {
				out = append(out, d.Path)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s holds no document canon indexes (no .md file inside the roots, or all excluded)", p)
		}
	}
	return Distinct(out), nil
}

// checkChange checks the documents a change touches in its new state
// (after) and, when before is given, in its old state too, and keeps only
// what the change introduces. The documents are the change's paths (those
// of both batches, and extra) with every rule, and those whose links the
// change re-resolves (the batches' changed keys) with link rules alone.
// The old state checks every document the new one does, so that a problem
// a document had all along is never taken for a new one.
func (s *Session) checkChange(ctx context.Context, after side, before *side, extra ...string) (*check.Result, error) {
	var beforeFn func() (*side, error)
	if before != nil {
		beforeFn = func() (*side, error) { return before, nil }
	}
	return s.checkChangeLazy(ctx, after, beforeFn, extra...)
}

// checkChangeLazy is checkChange with the old state made on demand: when
// the new state's run finds nothing and has a batch to go first, the old
// one is never needed.
func (s *Session) checkChangeLazy(ctx context.Context, after side, beforeFn func() (*side, error), extra ...string) (*check.Result, error) {
	if _, err := s.CatchUp(ctx); err != nil {
		return nil, err
	}
	unlock, err := s.Store.Lock(ctx, s.Who, s.LockWait)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// The old state is needed up front only when the new one has no batch
	// (--new-from: the old state's preview says which keys moved).
	var before *side
	if beforeFn != nil && after.batch == nil {
		var err error
		if before, err = beforeFn(); err != nil {
			return nil, err
		}
	}
	changed := map[string]bool{}
	for _, p := range extra {
		changed[p] = true
	}
	for _, sd := range []*side{&after, before} {
		if sd != nil && sd.batch != nil {
			for _, l := range sd.batch.Upserts {
				changed[l.Path] = true
			}
			for _, p := range sd.batch.Deletes {
				changed[p] = true
			}
		}
	}
	full := make([]string, 0, len(changed))
	for p := range changed {
		full = append(full, p)
	}
	sort.Strings(full)

	// The side with a batch goes first: its preview says which keys the
	// change moves.
	first, second := &after, before
	if after.batch == nil && before != nil {
		first, second = before, &after
	}
	r1, links, err := s.checkSide(ctx, first, full, nil)
	if err != nil {
		return nil, err
	}
	if beforeFn == nil {
		return r1, nil
	}
	if second == nil {
		// The new state went first: its findings decide whether the old
		// one is needed at all.
		if len(r1.Findings) == 0 {
			r1.NewOnly = true
			return r1, nil
		}
		if second, err = beforeFn(); err != nil {
			return nil, err
		}
		if b := second.batch; b != nil {
			for _, l := range b.Upserts {
				if !changed[l.Path] {
					changed[l.Path] = true
					full = append(full, l.Path)
				}
			}
			for _, p := range b.Deletes {
				if !changed[p] {
					changed[p] = true
					full = append(full, p)
				}
			}
			sort.Strings(full)
		}
	}
	r2, _, err := s.checkSide(ctx, second, full, links)
	if err != nil {
		return nil, err
	}
	ra, rb := r1, r2
	if first != &after {
		ra, rb = r2, r1
	}
	fresh, old := check.Introduced(rb.Findings, ra.Findings)
	res := &check.Result{Findings: fresh, Checked: ra.Checked, NewOnly: true, Before: rb.Findings}
	oldIn := map[string]bool{}
	for _, f := range old {
		if changed[f.Path] {
			res.Old++
			if !oldIn[f.Path] {
				oldIn[f.Path] = true
				res.OldFiles = append(res.OldFiles, f.Path)
			}
		}
	}
	sort.Strings(res.OldFiles)
	return res, nil
}

// checkSide runs check on one side: the documents at the paths full (every
// rule) and at linkPaths plus those whose keys the side's batch changes
// (link rules). It returns the result and the link-checked paths.
func (s *Session) checkSide(ctx context.Context, sd *side, full, linkPaths []string) (*check.Result, []string, error) {
	res := &check.Result{}
	var outLinks []string
	// The repository uses wiki-links if one works as it is or as the side
	// leaves it: deleting the note they link to makes errors, not warnings.
	var wikiBefore bool
	err := s.Store.Read(func(q index.Querier) error {
		var err error
		wikiBefore, err = index.WikiLinksWork(ctx, q)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	run := func(q index.Querier, keys []string) error {
		wiki := wikiBefore
		if !wiki {
			var err error
			if wiki, err = index.WikiLinksWork(ctx, q); err != nil {
				return err
			}
		}
		in := check.Input{Cfg: s.Cfg, Docs: []int64{}, Tree: sd.tree, WikiLinksWork: &wiki, ReadSidecar: sd.sidecar}
		if in.ReadSidecar == nil {
			in.ReadSidecar = s.worktreeSidecar
		}
		isFull := map[string]bool{}
		for _, p := range full {
			isFull[p] = true
		}
		ids, err := index.DocIDsOfPaths(ctx, q, full)
		if err != nil {
			return err
		}
		for _, p := range full {
			if id, ok := ids[p]; ok {
				in.Docs = append(in.Docs, int64(id))
				res.Checked = append(res.Checked, p)
			}
		}
		skipped, err := index.SkippedAmong(ctx, q, full)
		if err != nil {
			return err
		}
		for _, p := range skipped {
			in.Skipped = append(in.Skipped, p)
			res.Checked = append(res.Checked, p)
		}
		linkSet := map[string]bool{}
		for _, p := range linkPaths {
			linkSet[p] = true
		}
		keyPaths, err := index.PathsOfKeys(ctx, q, keys)
		if err != nil {
			return err
		}
		for _, p := range keyPaths {
			linkSet[p] = true
		}
		for p := range linkSet {
			if !isFull[p] {
				outLinks = append(outLinks, p)
			}
		}
		sort.Strings(outLinks)
		lids, err := index.DocIDsOfPaths(ctx, q, outLinks)
		if err != nil {
			return err
		}
		for _, p := range outLinks {
			if id, ok := lids[p]; ok {
				in.LinksOnly = append(in.LinksOnly, int64(id))
				res.Checked = append(res.Checked, p)
			}
		}
		res.Findings, err = check.Run(ctx, q, in)
		return err
	}
	if sd.batch == nil {
		return res, outLinks, s.Store.Read(func(q index.Querier) error { return run(q, nil) })
	}
	err = s.Store.Preview(ctx, sd.batch, func(q index.Querier, ch *index.Changes) error {
		return run(q, ch.Keys)
	})
	return res, outLinks, err
}

// setMeta records what CheckAll counted (tests make it fail).
var setMeta = (*index.Store).SetMeta

// CheckAll validates every document (for CI) as the index holds them; the
// caller reconciles the working tree first (and hands the changes to the
// worksets), so edits not yet synced are checked as they are. canon
// problems and the counts of init and status come from here too: one set
// of rules. The counts are recorded (index.MetaChecked) for canon status.
func (s *Session) CheckAll(ctx context.Context) (*check.Result, error) {
	res := &check.Result{}
	err := s.Store.Read(func(q index.Querier) error {
		var err error
		if res.Findings, err = check.Run(ctx, q, check.Input{Cfg: s.Cfg, Tree: &GitTree{Repo: s.Repo}, ReadSidecar: s.worktreeSidecar}); err != nil {
			return err
		}
		res.Checked, err = index.AllPaths(ctx, q)
		return err
	})
	if err != nil {
		return nil, err
	}
	tracked, err := s.Repo.TrackedInWorksetDir(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range tracked {
		res.Findings = append(res.Findings, index.TrackedWorksetProblem(p))
	}
	sum := check.Summarize(res.Findings, 0)
	head, _ := s.Store.Meta(index.MetaHead)
	synced, _ := s.Store.Meta(index.MetaSyncedAt)
	id, _ := s.Store.Meta(index.MetaSyncID)
	rec, err := json.Marshal(checkedRecord{Errors: sum.Errors, Warnings: sum.Warnings, Files: sum.Files, Head: head, SyncedAt: synced, SyncID: id})
	if err == nil {
		// A count another writer keeps from being recorded is only
		// status's loss: the check still stands, and the person hears
		// why status lags.
		err = setMeta(s.Store, ctx, map[string]string{index.MetaChecked: string(rec)})
	}
	if err != nil {
		s.note("the problem count was not recorded, so canon status shows an older one (%v); the next canon check records it", err)
	}
	return res, nil
}

// RepoPath turns a path given on the command line (relative to the current
// folder) into a repo-relative one.
func (r *Repo) RepoPath(arg string) (string, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	rootReal, _ := filepath.EvalSymlinks(r.Root)
	if resolved, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(resolved, filepath.Base(abs))
	}
	rel, err := filepath.Rel(rootReal, abs)
	if err != nil || !safepath.Within(rootReal, abs) {
		return "", fmt.Errorf("%s is outside the repository", arg)
	}
	if _, err := os.Lstat(abs); err != nil {
		return "", fmt.Errorf("%s does not exist", arg)
	}
	return filepath.ToSlash(rel), nil
}

// dash stands in for an empty field of the recorded count.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// DocProblems validates one document with every rule, as check --all
// would, and returns what it finds in that document (canon show).
func (s *Session) DocProblems(ctx context.Context, path string) ([]check.Finding, error) {
	var fs []check.Finding
	err := s.Store.Read(func(q index.Querier) error {
		ids, err := index.DocIDsOfPaths(ctx, q, []string{path})
		if err != nil {
			return err
		}
		in := check.Input{Cfg: s.Cfg, Docs: []int64{}, Tree: &GitTree{Repo: s.Repo}, ReadSidecar: s.worktreeSidecar}
		if id, ok := ids[path]; ok {
			in.Docs = append(in.Docs, int64(id))
		} else {
			in.Skipped = []string{path}
		}
		fs, err = check.Run(ctx, q, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := []check.Finding{}
	mine := append([]string{path}, scan.SidecarsOf(s.Cfg, path)...) // a finding about a sidecar's field names the sidecar
	for _, f := range fs {
		if slices.Contains(mine, f.Path) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Checked is what the last check of every document recorded.
type Checked struct {
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Files    int    `json:"files"`
	Head     string `json:"head"`      // the commit the index reflected
	SyncedAt string `json:"synced_at"` // and when it had last synced
	// Current says the index is still in the state that check saw.
	Current bool `json:"current"`
}

// checkedRecord is index.MetaChecked: the counts of the last check of
// every document and the state of the index it saw.
type checkedRecord struct {
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Files    int    `json:"files"`
	Head     string `json:"head"`
	SyncedAt string `json:"synced_at"`
	SyncID   string `json:"sync_id"`
}

// LastChecked reads the counts of the last check of every document (nil
// when there was none since the index was built, or the record is of
// another version of canon).
func (s *Session) LastChecked() (*Checked, error) {
	v, err := s.Store.Meta(index.MetaChecked)
	if err != nil || v == "" {
		return nil, err
	}
	var r checkedRecord
	if json.Unmarshal([]byte(v), &r) != nil {
		return nil, nil
	}
	head, _ := s.Store.Meta(index.MetaHead)
	synced, _ := s.Store.Meta(index.MetaSyncedAt)
	nowID, _ := s.Store.Meta(index.MetaSyncID)
	c := &Checked{Errors: r.Errors, Warnings: r.Warnings, Files: r.Files, Head: dash(r.Head), SyncedAt: dash(r.SyncedAt)}
	// Two syncs can fall in the same second of synced_at: the sync id
	// tells them apart.
	c.Current = r.Head == head && r.SyncedAt == synced && r.SyncID == nowID
	return c, nil
}
