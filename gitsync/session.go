package gitsync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// Session is one worktree opened for work: where it is, its configuration,
// its index. Every canon command starts by opening one.
type Session struct {
	Repo   *Repo
	Cfg    *config.Config
	Store  *index.Store
	Scope  *scan.Scope
	Loader *index.Loader

	// Who describes this process in the lock file ("canon hook post-commit").
	Who string
	// LockWait is how long a writer waits for another one.
	LockWait time.Duration
	// Note receives one-line notes meant for a person (a fallback taken, a
	// rebuild started). Nil drops them.
	Note func(string)
	// Progress, when set, is asked for a progress callback before a full
	// build; it returns the callback and a func to call when done.
	Progress func(total int) (step func(done int), finish func())

	built  bool // the schema was just created: the index is empty
	onSync []func(context.Context, *Session, *Result)
	// gitIndexSeen is git's index file (size, time) when Fresh last found
	// nothing put back: git stash and reset --hard rewrite it, so while it
	// is the same a long-lived session (canon mcp) skips the stats.
	gitIndexSeen [2]int64
	// current: Current took the working tree in at this command's start,
	// so the first SyncWorkingTree after it has nothing to add.
	current bool
	// untaken, untakenWhy: the edits Current found and could not take in.
	untaken    int
	untakenWhy error
	// listener: what Current's look for a listener found (ListenerSeen).
	listener ListenerSeen

	// Fields rather than globals, so that a test sets them on its own
	// session while others run beside it.
	maxTrees     int        // see defaultWalkTrees
	sliceApplied func()     // when set, runs after each transaction of a diff but the last
	gitDiffs     int        // how many diffs this session asked of git diff-tree
	prewalk      *Prewalk   // a hook's walk started before the session opened (UsePrewalk)
	overlayMu    sync.Mutex // one overlay update at a time in this process (canon mcp's calls share a session)
	overlayLimit int        // see OverlayLoadLimit
	overlayBytes [2]int64   // per ref and per call, when set: see OverlayRefBytes
	walked       int        // refs whose merge base a walk looked for (tests)
}

// OnSync registers f to be told of every sync of this session that
// changed the index: a catch-up, a rebuild, a reconcile, and the syncs
// others make through Synced (the watcher's edits). Whoever opens a
// session sets it once (the CLI, the hooks, the watcher), so that no sync
// path can forget the worksets (docs/architecture.md). f runs after the writer
// lock is released; it gets the session, which a watcher may have
// replaced since (Adopt).
func (s *Session) OnSync(f func(ctx context.Context, s *Session, res *Result)) {
	s.onSync = append(s.onSync, f)
}

// Synced tells the OnSync listeners of a sync made outside CatchUp,
// Rebuild and Reconcile.
func (s *Session) Synced(ctx context.Context, res *Result) {
	if res == nil || res.Action == ActionNone {
		return
	}
	for _, f := range s.onSync {
		f(ctx, s, res)
	}
}

// Adopt takes over what the caller set on old: notes, progress, the lock
// wait and the OnSync listeners (a watcher reopening its session after a
// configuration change).
func (s *Session) Adopt(old *Session) {
	s.Note, s.LockWait, s.Progress = old.Note, old.LockWait, old.Progress
	s.onSync = append([]func(context.Context, *Session, *Result){}, old.onSync...)
}

// Open discovers the repository around dir, loads its configuration and
// opens (creating if needed) its index. It does not sync; see CatchUp.
func Open(dir, who string) (*Session, error) {
	return OpenContext(context.Background(), dir, who)
}

// OpenContext is Open whose wait for another process's schema migration
// of the index ends when ctx does (Ctrl-C, SIGTERM), with ctx's error and
// nothing written.
func OpenContext(ctx context.Context, dir, who string) (*Session, error) {
	repo, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(repo.Root)
	if err != nil {
		return nil, err
	}
	removeStaleVerify(repo.CanonDir())
	st, fresh, err := index.OpenIndexContext(ctx, repo.IndexPath())
	if err != nil {
		return nil, err
	}
	s := &Session{
		Repo: repo, Store: st,
		Who:      who,
		LockWait: lockWait(),
		built:    fresh,
		maxTrees: defaultWalkTrees,
	}
	s.useConfig(cfg)
	return s, nil
}

// useConfig takes cfg up as the session's configuration: what the index
// reads and how.
func (s *Session) useConfig(cfg *config.Config) {
	s.Cfg = cfg
	s.Store.Namespaces, s.Store.KnownKinds, s.Store.KnownEdges = cfg.Namespaces, cfg.KnownKinds(), cfg.KnownEdges()
	s.Store.LeftOut = cfg.LeftOut
	s.Scope = scan.NewScope(s.Repo.Root, cfg, s.Repo.InfoExclude())
	s.Loader = index.NewLoader(s.Repo.Root, cfg)
}

// Close releases the index.
func (s *Session) Close() error { return s.Store.Close() }

func (s *Session) note(format string, args ...any) {
	if s.Note != nil {
		s.Note(fmt.Sprintf(format, args...))
	}
}

// Result says what a sync did.
type Result struct {
	Action  string         `json:"action"` // none, diff, rebuild, reconcile
	From    string         `json:"from,omitempty"`
	To      string         `json:"to,omitempty"`
	Reason  string         `json:"reason,omitempty"` // why a rebuild happened
	Changes *index.Changes `json:"changes,omitempty"`
	Stats   *index.Stats   `json:"stats,omitempty"`
}

// Actions.
const (
	ActionNone      = "none"
	ActionDiff      = "diff"
	ActionRebuild   = "rebuild"
	ActionReconcile = "reconcile"
)

// Behind reports whether the index does not reflect HEAD (or the current
// configuration) — the O(1) check: it reads refs and one meta row, no
// objects.
func (s *Session) Behind() (head string, behind bool, err error) {
	if err := s.Store.Refresh(); err != nil {
		return "", false, err
	}
	head, _, err = s.Repo.Head()
	if err != nil {
		return "", false, err
	}
	meta, err := s.Store.AllMeta()
	if err != nil {
		return "", false, err
	}
	return head, meta[index.MetaBuiltAt] == "" || meta[index.MetaHead] != head || meta[index.MetaConfig] != s.Cfg.IndexHash() ||
		meta[index.MetaPending] != "", nil
}

// CatchUp brings the index to HEAD if it is behind: a tree diff from the
// indexed commit, or a full build when there is none to diff from. Every
// command calls it first, so an index never answers for a commit it does
// not reflect.
func (s *Session) CatchUp(ctx context.Context) (*Result, error) {
	_, behind, err := s.Behind()
	if err != nil || !behind {
		return &Result{Action: ActionNone}, err
	}
	return s.locked(ctx, func() (*Result, error) { return s.catchUpLocked(ctx) })
}

// Fresh is CatchUp for the commands that answer from the index (search,
// show, context, MCP calls): it also notices when git has put something
// else where a reconcile had read the working tree, without a hook (stash,
// reset --hard at the same HEAD): a stat of each such file
// (Store.WorktreeChanged), and only when one changed a reconcile, which
// reads every changed file. Without that, edits the index never read stay
// for canon sync or canon watch. A session that lives on (canon mcp) stats
// again only once git's index file changed (stash and reset rewrite it).
// The hooks keep to CatchUp: they follow HEAD (ADR-0028).
func (s *Session) Fresh(ctx context.Context) (*Result, error) {
	res, err := s.CatchUp(ctx)
	if err != nil || res.Action == ActionRebuild {
		return res, err
	}
	var seen [2]int64
	if fi, err := os.Stat(filepath.Join(s.Repo.GitDir, "index")); err == nil {
		seen = [2]int64{fi.Size(), fi.ModTime().UnixNano()}
		if seen == s.gitIndexSeen && res.Action == ActionNone {
			return res, nil
		}
	}
	n, err := s.Store.WorktreeChanged(s.Scope)
	if err != nil || n == 0 {
		if err == nil {
			s.gitIndexSeen = seen
		}
		return res, err
	}
	s.gitIndexSeen = [2]int64{}
	return s.Reconcile(ctx)
}

// locked runs a sync under the writer lock and, once the lock is released,
// tells the OnSync listeners what it changed.
func (s *Session) locked(ctx context.Context, sync func() (*Result, error)) (*Result, error) {
	return s.lockedWithin(ctx, s.LockWait, sync)
}

// lockedWithin is locked, waiting at most wait for another writer.
func (s *Session) lockedWithin(ctx context.Context, wait time.Duration, sync func() (*Result, error)) (*Result, error) {
	res, err := func() (*Result, error) {
		unlock, err := s.Store.Lock(ctx, s.Who, wait)
		if err != nil {
			return nil, err
		}
		defer unlock()
		return sync()
	}()
	if err == nil {
		s.Synced(ctx, res)
	}
	return res, err
}

func (s *Session) catchUpLocked(ctx context.Context) (*Result, error) {
	head, _, err := s.Repo.Head()
	if err != nil {
		return nil, err
	}
	meta, err := s.Store.AllMeta()
	if err != nil {
		return nil, err
	}
	switch {
	case meta[index.MetaBuiltAt] == "":
		return s.rebuildLocked(ctx, head, "")
	case meta[index.MetaConfig] != s.Cfg.IndexHash():
		// Back to a configuration whose index was kept (a branch without
		// .canon/config.yaml and back): catch that one up (ADR-0055).
		restored, err := s.Store.RestoreSpare(ctx, s.Cfg.IndexHash())
		if err != nil {
			return nil, err
		}
		if restored {
			s.note("the configuration changed; the index kept for this one catches up instead of a rebuild")
			// and reads the working tree as another index last read it
			// (edits synced there, files added or deleted that git did not
			// touch): a stat walk, as canon sync does
			return s.reconcileLocked(ctx)
		}
		if err := s.Store.KeepSpare(ctx); err != nil {
			s.note("%v; the next change back rebuilds too", err)
		}
		return s.rebuildLocked(ctx, head, "the configuration changed")
	case meta[index.MetaHead] == head && meta[index.MetaPending] == "":
		return &Result{Action: ActionNone, To: head}, nil
	}
	from := meta[index.MetaHead]
	pending := strings.Fields(meta[index.MetaPending])
	ahead := startReadAhead(s.Loader, s.Scope, s.Store.SliceFiles)
	changes, err := s.treeDiff(ctx, from, head, ahead.add)
	if err == nil && len(pending) > 0 {
		changes, err = s.withPending(ctx, from, head, pending, changes)
	}
	if err != nil {
		ahead.abandon()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		reason := fmt.Sprintf("the trees of %s and %s cannot be compared (%v)", short(from), short(head), err)
		if errors.Is(err, ErrMissingCommit) {
			reason = fmt.Sprintf("the indexed commit %s is no longer in the repository (garbage-collected or beyond a shallow clone)", short(from))
		}
		return s.rebuildLocked(ctx, head, reason)
	}
	ch, err := s.applyDiff(ctx, changes, ahead.finish(), head, pending)
	if err != nil {
		return nil, fmt.Errorf("sync %s..%s: %w", short(from), short(head), err)
	}
	return &Result{Action: ActionDiff, From: from, To: head, Changes: ch}, nil
}

// withPending adds to a diff the files of unfinished catch-ups (MetaPending):
// their first slices may have written files that differ between the indexed
// commit and theirs, which the diff to HEAD need not list. Each is read
// again from the working tree (or deleted), which puts it right.
func (s *Session) withPending(ctx context.Context, from, head string, pending []string, changes []TreeChange) ([]TreeChange, error) {
	listed := map[string]bool{}
	for _, c := range changes {
		listed[c.Path] = true
	}
	for _, p := range pending {
		if p == head {
			continue // the diff to HEAD lists them already
		}
		extra, err := s.treeDiff(ctx, from, p, func(TreeChange) {})
		if err != nil {
			return nil, fmt.Errorf("an unfinished update towards %s: %w", short(p), err)
		}
		for _, c := range extra {
			if !listed[c.Path] {
				listed[c.Path] = true
				changes = append(changes, TreeChange{Path: c.Path})
			}
		}
	}
	return changes, nil
}

// applyDiff turns a tree diff into index updates and applies them. pending
// are the unfinished catch-ups this one completes.
func (s *Session) applyDiff(ctx context.Context, changes []TreeChange, ahead map[string]*index.Loaded, head string,
	pending []string) (*index.Changes, error) {
	p, err := s.planFor(ctx, changes)
	if err != nil {
		return nil, err
	}
	// A diff over s.Store.SliceFiles files is applied in several
	// transactions under the writer lock (ADR-0012). Only the last records
	// the new commit: until then the index says it is behind and every
	// command waits for the lock; the first records where this one is going,
	// so that an interrupted one is put right (withPending).
	return s.Store.ApplySlices(ctx, len(p.load), func(lo, hi int, last bool) (*index.Batch, error) {
		if lo > 0 && s.sliceApplied != nil {
			s.sliceApplied()
		}
		b := index.NewBatch(s.Cfg)
		if lo == 0 {
			b.Deletes, b.Renames = p.deletes, p.renames
			if !last && !slices.Contains(pending, head) {
				b.Meta[index.MetaPending] = strings.Join(append(slices.Clone(pending), head), " ")
			}
		}
		if last {
			b.Meta[index.MetaHead] = head
			b.Meta[index.MetaPending] = ""
		}
		return b, s.loadInto(ctx, b, p.load[lo:hi], p.stored, ahead)
	})
}

// treeDiff lists the documents that differ between two commits, handing
// each to found as soon as it is known. It walks the trees (a merkle walk:
// a one-document commit reads a handful of trees; a hook's Prewalk may
// have done it already, on the other core) and hands a
// diff spanning more than s.maxTrees trees to git diff-tree, whose C inflate
// reads trees about three times as fast (ADR-0011). What go-git cannot read,
// such as a SHA-256 repository, goes to git diff-tree too, with a note.
func (s *Session) treeDiff(ctx context.Context, from, head string, found func(TreeChange)) ([]TreeChange, error) {
	var changes []TreeChange
	collect := func(c TreeChange) {
		changes = append(changes, c)
		found(c)
	}
	pre, took, perr := s.takePrewalk(from, head, found)
	if took && perr == nil {
		return pre, nil
	}
	if s.Repo.ObjectFormat() == "sha1" {
		var err error
		if took && errors.Is(perr, ErrLargeDiff) {
			err = perr // the hook's prewalk read its budget of trees already
		} else {
			err = s.walk(from, head, s.maxTrees, collect)
		}
		switch {
		case err == nil:
			return changes, nil
		case errors.Is(err, ErrMissingCommit):
			return nil, err
		case errors.Is(err, ErrLargeDiff):
			changes = nil // git lists them all again; found ignores repeats
			s.gitDiffs++
			gerr := DiffTreesGit(ctx, s.Repo, from, head, s.filter(), collect)
			if gerr == nil {
				return changes, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err() // interrupted, not failed
			}
			s.note("git diff-tree failed (%v); walking the trees with go-git instead", gerr)
			changes = nil
			if err := s.walk(from, head, 0, collect); err != nil {
				return nil, err
			}
			return changes, nil
		}
		s.note("go-git cannot walk this repository's trees (%v); asking git diff-tree for the differences", err)
		changes = nil
	} else {
		s.note("this repository uses %s object ids, which go-git cannot read; asking git diff-tree for the differences", s.Repo.ObjectFormat())
	}
	s.gitDiffs++
	if err := DiffTreesGit(ctx, s.Repo, from, head, s.filter(), collect); err != nil {
		if from != "" && !index.IsObjectID(from) {
			return nil, fmt.Errorf("%s: %w", short(from), ErrMissingCommit)
		}
		if _, verr := s.Repo.Git(ctx, "cat-file", "-e", "--end-of-options", from+"^{commit}"); verr != nil && from != "" {
			return nil, fmt.Errorf("%s: %w", short(from), ErrMissingCommit)
		}
		return nil, err
	}
	return changes, nil
}

// walk diffs two commits' trees with go-git, reading at most maxTrees trees
// (0: no limit).
func (s *Session) walk(from, head string, maxTrees int, fn func(TreeChange)) error {
	objs := OpenObjects(s.Repo)
	defer objs.Close()
	objs.MaxTrees = maxTrees
	fromTree, err := objs.CommitTree(from)
	if err != nil {
		return err
	}
	toTree, err := objs.CommitTree(head)
	if err != nil {
		// Not ErrMissingCommit: that would blame the indexed commit.
		return fmt.Errorf("read %s: %v", short(head), err) //nolint:errorlint // not wrapped, as said above
	}
	return objs.DiffTreesEach(fromTree, toTree, s.filter(), fn)
}

// defaultWalkTrees is how many trees a go-git walk reads before the diff
// goes to git diff-tree: a commit touching a few documents reads a dozen;
// a branch switch touching hundreds of folders would read thousands.
const defaultWalkTrees = 128

// filter keeps a tree diff to the documents in scope.
func (s *Session) filter() Filter {
	return Filter{
		Dir: func(dir string) bool {
			return s.dirInRoots(dir) && !s.Scope.Ignored(dir, true)
		},
		File: func(p string) bool {
			return s.Scope.IsDocumentPath(p) || scan.IsSidecar(s.Cfg, p) && s.Scope.IsDocumentPath(path.Join(path.Dir(p), config.SidecarBeside))
		},
	}
}

// besideChanges turns a change of a sidecar (kep.yaml) into one of the
// README.md beside it, whose fields it holds, unless the README changed
// too: the README is read again, with the sidecar as it is now.
func besideChanges(cfg *config.Config, changes []TreeChange) []TreeChange {
	if len(cfg.Sidecars) == 0 {
		return changes
	}
	has := map[string]bool{}
	for _, c := range changes {
		has[c.Path] = true
	}
	out := changes[:0]
	for _, c := range changes {
		if scan.IsMarkdown(c.Path) {
			out = append(out, c)
			continue
		}
		if p := path.Join(path.Dir(c.Path), config.SidecarBeside); !has[p] {
			has[p] = true
			out = append(out, TreeChange{Path: p})
		}
	}
	return out
}

// dirInRoots reports whether a folder is inside a root or above one.
func (s *Session) dirInRoots(dir string) bool {
	for _, r := range s.Cfg.Roots {
		if r == "." || dir == r || strings.HasPrefix(dir, r+"/") || strings.HasPrefix(r, dir+"/") {
			return true
		}
	}
	return false
}

// batchPlan is what a tree diff means for the index, before any file is
// read: paths gone, renames (a path update, nothing to read) and the files
// to read.
type batchPlan struct {
	deletes []string
	renames []index.Rename
	load    []scan.FileInfo
	stored  map[string]index.StoredFile
}

// planFor turns a tree diff into a plan. The index reflects the working
// tree, so each changed path is looked at there: gone means deleted,
// present means read (a file whose content the index already has is only
// touched). A deletion and an addition of the same blob whose working-tree
// content still matches is a rename: a path update.
func (s *Session) planFor(ctx context.Context, changes []TreeChange) (*batchPlan, error) {
	changes = besideChanges(s.Cfg, changes)
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	paths := make([]string, 0, len(changes))
	for _, c := range changes {
		paths = append(paths, c.Path)
	}
	stored, err := s.Store.StoredFiles(ctx, paths)
	if err != nil {
		return nil, err
	}
	p := &batchPlan{stored: stored}
	type goneDoc struct{ path, stamp string }
	gone := map[string]goneDoc{} // by the blob id of the document's own file
	present := map[string]scan.FileInfo{}
	for _, c := range changes {
		fi, ok := s.Scope.Stat(c.Path)
		if !ok {
			p.deletes = append(p.deletes, c.Path)
			// Only a document moves by a path update; a skipped file is
			// deleted and added. A README's stored stamp holds its
			// sidecar's blob after its own (a KEP's folder renamed).
			st := stored[c.Path]
			if own, _, _ := strings.Cut(st.OID, "+"); c.From != "" && st.Doc && own == c.From {
				if _, dup := gone[c.From]; !dup {
					gone[c.From] = goneDoc{c.Path, st.OID}
				}
			}
			continue
		}
		present[c.Path] = fi
	}
	renamed := map[string]bool{}
	for _, c := range changes {
		fi, ok := present[c.Path]
		if !ok {
			continue
		}
		if g, isRename := gone[c.To]; isRename && c.From == "" && !renamed[g.path] && !fi.Symlink {
			from := g.path
			if data, err := scan.ReadDocument(s.Repo.Root, s.Cfg, c.Path); err == nil && scan.BlobOID(data) == c.To &&
				s.Loader.StampOf(c.Path, c.To) == g.stamp &&
				index.RenameKeepsKind(s.Cfg.Kinds, s.Loader.Fields(fi, data).Doc, from, c.Path) {
				renamed[from] = true
				p.renames = append(p.renames, index.Rename{From: from, To: fi})
				continue
			}
		}
		p.load = append(p.load, fi)
	}
	if len(renamed) > 0 {
		kept := p.deletes[:0]
		for _, d := range p.deletes {
			if !renamed[d] {
				kept = append(kept, d)
			}
		}
		p.deletes = kept
	}
	return p, nil
}

// loadInto reads files into b: what the read-ahead loaded serves if the file
// is as it was then; the rest is read now, on every core.
func (s *Session) loadInto(ctx context.Context, b *index.Batch, files []scan.FileInfo, stored map[string]index.StoredFile,
	ahead map[string]*index.Loaded) error {
	loaded := make([]*index.Loaded, len(files))
	var rest []scan.FileInfo
	var restAt []int
	for i, fi := range files {
		if l := ahead[fi.Path]; l != nil && l.FileInfo == fi {
			loaded[i] = l
			delete(ahead, fi.Path)
			continue
		}
		rest = append(rest, fi)
		restAt = append(restAt, i)
	}
	k := 0
	err := s.Loader.LoadAll(ctx, rest, func(l *index.Loaded) error {
		for rest[k].Path != l.Path {
			k++
		}
		loaded[restAt[k]] = l
		return nil
	})
	if err != nil {
		return err
	}
	for _, l := range loaded {
		switch {
		case l == nil:
		case stored[l.Path].OID == l.Stamp() && l.Doc != nil:
			b.Touches = append(b.Touches, l.FileInfo)
		default:
			b.Upserts = append(b.Upserts, l)
		}
	}
	return nil
}

// Rebuild builds the index from nothing, under the writer lock.
func (s *Session) Rebuild(ctx context.Context, reason string) (*Result, error) {
	return s.locked(ctx, func() (*Result, error) {
		head, _, err := s.Repo.Head()
		if err != nil {
			return nil, err
		}
		return s.rebuildLocked(ctx, head, reason)
	})
}

func (s *Session) rebuildLocked(ctx context.Context, head, reason string) (*Result, error) {
	if reason != "" {
		s.note("%s; rebuilding the index", reason)
	}
	files, err := s.Scope.Walk()
	if err != nil {
		return nil, err
	}
	var step func(int)
	if s.Progress != nil {
		var finish func()
		step, finish = s.Progress(len(files))
		defer finish()
	}
	meta := map[string]string{
		index.MetaHead:   head,
		index.MetaConfig: s.Cfg.IndexHash(),
		index.MetaScanNs: fmt.Sprint(time.Now().UnixNano()),
	}
	stats, err := s.Store.Rebuild(ctx, s.Loader, files, meta, step)
	if err != nil {
		return nil, fmt.Errorf("build index: %w", err)
	}
	return &Result{Action: ActionRebuild, To: head, Reason: reason, Stats: stats}, nil
}

// Reconcile catches up with HEAD and then compares the working tree with the
// index by a stat walk, reading only what changed: canon sync and canon
// index.
func (s *Session) Reconcile(ctx context.Context) (*Result, error) {
	return s.locked(ctx, func() (*Result, error) { return s.reconcileLocked(ctx) })
}

// reconcileLocked is Reconcile under the writer lock.
func (s *Session) reconcileLocked(ctx context.Context) (*Result, error) {
	res, err := s.catchUpLocked(ctx)
	if err != nil || res.Action == ActionRebuild {
		return res, err
	}
	head, _, err := s.Repo.Head()
	if err != nil {
		return nil, err
	}
	ch, err := s.Store.Reconcile(ctx, s.Loader, s.Scope, map[string]string{index.MetaHead: head})
	if err != nil {
		return nil, fmt.Errorf("reconcile working tree: %w", err)
	}
	if res.Changes != nil {
		ch = index.MergeChanges(res.Changes, ch)
	}
	res.Action, res.To, res.Changes = ActionReconcile, head, ch
	return res, nil
}

// VerifyPath is where canon verify builds its comparison index: beside the
// index, named by its process, so that the next command can tell one left
// by a killed verify (removeStaleVerify).
func VerifyPath(canonDir string) string {
	return filepath.Join(canonDir, fmt.Sprintf("verify-%d.db", os.Getpid()))
}

var verifyFile = lazyre.MustCompile(`^verify-([0-9]+)\.db(\.build)?(-wal|-shm|-journal|\.lock)?$`)

// removeStaleVerify deletes the comparison indexes of verify processes that
// are gone: each can be as large as the index.
func removeStaleVerify(canonDir string) {
	entries, err := os.ReadDir(canonDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := verifyFile.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if pid, err := strconv.Atoi(m[1]); err == nil && !safepath.PIDAlive(pid) {
			os.Remove(filepath.Join(canonDir, e.Name()))
		}
	}
}

// lockWait is how long a writer waits for another: a minute, or
// CANON_LOCK_WAIT (a Go duration such as 5s).
func lockWait() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("CANON_LOCK_WAIT")); err == nil && d >= 0 {
		return d
	}
	return 60 * time.Second
}

// SyncPaths re-reads the working-tree files at paths (repo-relative) into
// the index, under the writer lock, as canon promote does for the files it
// wrote: nothing else is compared. The commit the index reflects stays.
func (s *Session) SyncPaths(ctx context.Context, paths []string) (*Result, error) {
	return s.locked(ctx, func() (*Result, error) {
		head, err := s.Store.Meta(index.MetaHead)
		if err != nil {
			return nil, err
		}
		b := index.NewBatch(s.Cfg)
		docs := make([]string, 0, len(paths))
		for _, p := range paths {
			docs = append(docs, s.documentOf(p))
		}
		for _, p := range Distinct(docs) {
			fi, ok := s.Scope.Stat(p)
			if !ok {
				continue
			}
			if l := s.Loader.Load(fi); l != nil {
				b.Upserts = append(b.Upserts, l)
			}
		}
		ch, err := s.Store.Apply(ctx, b)
		if err != nil {
			return nil, fmt.Errorf("sync %d written files: %w", len(paths), err)
		}
		return &Result{Action: ActionReconcile, From: head, To: head, Changes: ch}, nil
	})
}
