package usecase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/ids"
	"github.com/canon-md/canon/workset"
)

// The ids of the repository's documents (issue 25, ADR-0043): canon id
// next, rename and fix, one call each for the command line.

// NextID is canon id next's answer: {"id": "KB-TSK-0013"}.
type NextID struct {
	ID string `json:"id"`
	// Record says ID is the number of the next numbered record (the
	// documents of the kind have no ids: name the file ID-TITLE.md).
	Record bool `json:"record,omitempty"`
}

// WriteText prints the id alone, for scripts.
func (n NextID) WriteText(w io.Writer) error {
	_, err := fmt.Fprintln(w, n.ID)
	return err
}

// ErrNamespace says canon id next was given a namespace the
// configuration does not name.
var ErrNamespace = errors.New("no such namespace")

// Next is the next free id of kind (a kind or a prefix) in namespace
// ("" for all), over the working tree and, through the overlays, every
// followed ref (ADR-0042), minted as ids.scheme says (ADR-0044).
// ids.ErrNoSeries when nothing has such ids, ErrNamespace for a
// namespace the configuration does not name.
func Next(ctx context.Context, s *gitsync.Session, kind, namespace string) (NextID, error) {
	if namespace != "" && len(s.Cfg.Namespaces.Folders(namespace)) == 0 {
		return NextID{}, fmt.Errorf("%w: --namespace %s names no configured namespace", ErrNamespace, namespace)
	}
	if err := s.SyncWorkingTree(ctx); err != nil {
		return NextID{}, err
	}
	if namespace == "" {
		if id, ok, err := nextOfSeries(ctx, s, kind); err != nil || ok {
			return NextID{ID: id}, err
		}
	}
	docs, err := s.Store.IdentDocs(ctx)
	if err != nil {
		return NextID{}, err
	}
	named, err := s.Store.FileIDDocs(ctx)
	if err != nil {
		return NextID{}, err
	}
	id, err := ids.NextFree(ctx, append(docs, named...), s.Cfg, kind, namespace, s.RefIDs)
	if errors.Is(err, ids.ErrNoSeries) {
		// Numbered records without ids (adr-tools, MADR: 0018-x.md): the
		// next file number, over the working tree and the other refs.
		paths, rerr := s.Store.RecordPaths(ctx, strings.ToLower(kind))
		if rerr != nil {
			return NextID{}, rerr
		}
		more, rerr := s.RefRecordPaths(ctx, kind)
		if rerr != nil {
			return NextID{}, rerr
		}
		if n, ok := ids.NextRecordNumber(append(paths, more...), s.Cfg, namespace); ok {
			return NextID{ID: n, Record: true}, nil
		}
	}
	return NextID{ID: id}, err
}

// RenameID is canon id rename: one document's id (the one at path when
// several carry it) and every reference to it, written through the edit
// engine all files or none, the files it moved recorded in git's index
// as git mv does (in the same journaled step) and the index synced. A dry
// run writes nothing.
func RenameID(ctx context.Context, s *gitsync.Session, from, to, path string, dry bool) (*IDRenamed, error) {
	r, err := newRenamer(ctx, s, dry)
	if err != nil {
		return nil, err
	}
	return r.rename(ctx, IDRenameArgs{Old: from, New: to, Path: path})
}

// renamer runs renames with what they need, read once: the session's
// repository, index, configuration and clock, and its Markdown files.
type renamer struct {
	s   *gitsync.Session
	env *idEnv
	md  []string
	dry bool
}

func newRenamer(ctx context.Context, s *gitsync.Session, dry bool) (*renamer, error) {
	md, err := s.Repo.MarkdownFiles(ctx)
	if err != nil {
		return nil, err
	}
	now, err := workset.ParseNow()
	if err != nil {
		return nil, &workset.NowError{Err: err}
	}
	return &renamer{s: s, env: &idEnv{Root: s.Repo.Root, Index: s.Store, Config: s.Cfg, Now: now}, md: md, dry: dry}, nil
}

func (r *renamer) rename(ctx context.Context, a IDRenameArgs) (*IDRenamed, error) {
	res, err := r.renameAll(ctx, []IDRenameArgs{a})
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// renameAll makes the renames in one step, all files or none
// (renameIDs).
func (r *renamer) renameAll(ctx context.Context, as []IDRenameArgs) ([]*IDRenamed, error) {
	for i := range as {
		as[i].Markdown = r.md
	}
	// The files it moves are told to git's index in the same journaled
	// step (Session.StageRename), so a rename killed midway and finished
	// by the next command is staged too.
	return renameIDs(ctx, r.s, r.env, as, r.dry)
}

// IDsFixed is what canon id fix did, or would do.
type IDsFixed struct {
	DryRun  bool         `json:"dry_run"`
	Renames []*IDRenamed `json:"renames"`
	Left    []string     `json:"left,omitempty"`
}

// WriteText prints each rename's diff and what it did, what was left,
// and a dry run's last line.
func (f *IDsFixed) WriteText(w io.Writer) error {
	for _, r := range f.Renames {
		r.DryRun = false // one "dry run" line at the end
		fmt.Fprint(w, r.Diff)
		r.Diff = ""
		if f.DryRun {
			fmt.Fprint(w, "would be: ")
		}
		if err := r.WriteText(w); err != nil {
			return err
		}
	}
	for _, l := range f.Left {
		fmt.Fprintln(w, "left: "+l)
	}
	if len(f.Renames) == 0 && len(f.Left) == 0 {
		fmt.Fprintln(w, "no id names two documents")
	}
	if f.DryRun {
		fmt.Fprintln(w, "dry run: nothing was written")
	}
	return nil
}

// FixIDs gives every document whose id another document carries a new
// one: in each collision the document git added first keeps the id, each
// other gets the next free id of its prefix, with a worklog line saying
// what it was renamed from. Every rename is planned first and the files
// are written in one step: all of them or, when one write fails, none.
func FixIDs(ctx context.Context, s *gitsync.Session, dry bool) (*IDsFixed, error) {
	if err := s.SyncWorkingTree(ctx); err != nil {
		return nil, err
	}
	docs, err := s.Store.IdentDocs(ctx)
	if err != nil {
		return nil, err
	}
	named, err := s.Store.FileIDDocs(ctx)
	if err != nil {
		return nil, err
	}
	r, err := newRenamer(ctx, s, dry)
	if err != nil {
		return nil, err
	}
	// The numbers file names carry are taken too: a rename never lands on
	// an archived "task-35 - Fix-x.md" that has no frontmatter id.
	all := append(append([]ids.Doc(nil), docs...), named...)
	out := &IDsFixed{DryRun: dry, Renames: []*IDRenamed{}}
	var reserved []string
	var renames []IDRenameArgs
	for _, col := range ids.Collisions(docs, s.Cfg) {
		ds := byCreation(ctx, s, col.Docs)
		for _, d := range ds[1:] {
			prefix, _, _, ok := ids.Split(d.Ident)
			if !ok {
				out.Left = append(out.Left, fmt.Sprintf("%s (%s) is not a numbered id; give it one with canon id rename", d.Ident, d.Path))
				continue
			}
			ns, _ := s.Cfg.Namespaces.Of(d.Path)
			next, err := ids.NextFree(ctx, all, s.Cfg, prefix, ns, s.RefIDs, reserved...)
			if err != nil {
				return nil, err
			}
			reserved = append(reserved, next)
			renames = append(renames, IDRenameArgs{Old: d.Ident, New: next, Path: d.Path,
				Worklog: fmt.Sprintf("renamed from %s by canon id fix: %s, created first, keeps %s", d.Ident, ds[0].Path, d.Ident)})
		}
	}
	if len(renames) == 0 {
		return out, nil
	}
	res, err := r.renameAll(ctx, renames)
	if err != nil {
		return nil, err
	}
	out.Renames = res
	return out, nil
}

// byCreation orders the documents that share an id by when git added
// them (the oldest first; one git does not track comes last), then path.
func byCreation(ctx context.Context, s *gitsync.Session, docs []ids.Doc) []ids.Doc {
	type dated struct {
		d  ids.Doc
		at int64
		ok bool
	}
	ds := make([]dated, len(docs))
	for i, d := range docs {
		at, ok := s.Repo.CreatedAt(ctx, d.Path)
		ds[i] = dated{d, at, ok}
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.ok != b.ok {
			return a.ok
		}
		if a.at != b.at {
			return a.at < b.at
		}
		return a.d.Path < b.d.Path
	})
	out := make([]ids.Doc, len(ds))
	for i, d := range ds {
		out[i] = d.d
	}
	return out
}
