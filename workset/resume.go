package workset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// A long task outlives an agent's session. A checkpoint records where the
// work stands (HEAD, the members and their blob ids, the plan's progress,
// the findings), and resume tells the next session, in one bounded pack,
// what the goal was, what is done and next, what was decided, and what
// changed in the repository since: the commits that touched members with
// the sections they changed, documents the workset would now select, and
// findings not yet promoted (ADR-0019).

// Checkpoint is a snapshot of a workset's progress.
type Checkpoint struct {
	Seq        int                `json:"seq" yaml:"seq"`
	At         time.Time          `json:"at" yaml:"at"`
	Head       string             `json:"head" yaml:"head"`
	Note       string             `json:"note,omitempty" yaml:"note,omitempty"`
	Agent      string             `json:"agent,omitempty" yaml:"agent,omitempty"`
	PlanDone   int                `json:"plan_done" yaml:"plan_done"`
	PlanTotal  int                `json:"plan_total" yaml:"plan_total"`
	Findings   int                `json:"findings" yaml:"findings"`
	Unpromoted int                `json:"unpromoted" yaml:"unpromoted"`
	Members    []CheckpointMember `json:"members" yaml:"members"`
}

// CheckpointMember is a member as the checkpoint saw it: the blob id its
// content had (the working tree's, as the index holds it).
type CheckpointMember struct {
	Key  string `json:"key" yaml:"key"`
	ID   string `json:"id" yaml:"id"`
	Path string `json:"path" yaml:"path"`
	OID  string `json:"oid" yaml:"oid"`
}

// ErrBadCheckpoint is a checkpoint whose values canon would not hand to
// git: a commit or blob that is no object id, a path that is not a plain
// repository-relative one. Checkpoints come from hand-off files and from
// workset databases, which are input.
var ErrBadCheckpoint = errors.New("bad checkpoint")

// validCheckpoint accepts a checkpoint whose commit and blob ids are
// object ids (or empty: a repository without commits) and whose paths are
// plain repository-relative paths.
func validCheckpoint(cp Checkpoint) error {
	if cp.Head != "" && !index.IsObjectID(cp.Head) {
		return fmt.Errorf("%w %d: its head %q is not a commit id", ErrBadCheckpoint, cp.Seq, shorten(cp.Head))
	}
	for _, m := range cp.Members {
		if m.OID != "" && !index.IsObjectID(m.OID) {
			return fmt.Errorf("%w %d: member %q has the blob id %q, which is not an object id", ErrBadCheckpoint, cp.Seq, shorten(m.Key), shorten(m.OID))
		}
		if !plainRelPath(m.Path) {
			return fmt.Errorf("%w %d: member %q has the path %q, which is not a path inside the repository", ErrBadCheckpoint, cp.Seq, shorten(m.Key), shorten(m.Path))
		}
	}
	return nil
}

// plainRelPath accepts a clean, slash-separated path inside the
// repository, as canon records them (safepath.CleanRel, unchanged).
func plainRelPath(p string) bool {
	c, err := safepath.CleanRel(p)
	return err == nil && c == p && c != "."
}

// CheckpointOptions describe one checkpoint.
type CheckpointOptions struct {
	Note  string
	Agent string
}

// RecordCheckpoint takes a checkpoint of the workset.
func RecordCheckpoint(ctx context.Context, e *Env, name string, opt CheckpointOptions) (*Checkpoint, error) {
	if err := checkCheckpoint(opt); err != nil {
		return nil, err
	}
	h, ms, err := e.openMembers(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	cp := &Checkpoint{At: e.Now.UTC().Truncate(time.Second), Head: e.Head, Note: flatten(opt.Note), Agent: opt.Agent,
		Members: []CheckpointMember{}}
	for _, mb := range ms {
		cur, err := currentDoc(ctx, e, mb.Key)
		if err != nil {
			return nil, err
		}
		if cur == nil {
			continue // deleted since: nothing to compare with later
		}
		cp.Members = append(cp.Members, CheckpointMember{Key: mb.Key, ID: mb.ID, Path: cur.path, OID: cur.oid})
	}
	items, err := h.planItems()
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		cp.PlanTotal++
		if it.Done {
			cp.PlanDone++
		}
	}
	if fs, err := h.findings(ctx); err == nil {
		cp.Findings = len(fs)
		for _, f := range fs {
			if !f.Promoted {
				cp.Unpromoted++
			}
		}
	}
	if err := h.insertCheckpoint(ctx, cp); err != nil {
		return nil, err
	}
	return cp, nil
}

func (h *handle) insertCheckpoint(ctx context.Context, cp *Checkpoint) error {
	seq, err := h.st.NextCheckpoint(ctx)
	if err != nil {
		return err
	}
	cp.Seq = seq
	if err := h.st.AddCheckpoint(ctx, cp.Seq, cp.At, cp.Head, jsonString(cp)); err != nil {
		return fmt.Errorf("record the checkpoint of %s: %w", h.name, err)
	}
	return nil
}

// checkpoints reads the checkpoints, oldest first.
func (h *handle) checkpoints(ctx context.Context) ([]Checkpoint, error) {
	datas, err := h.st.Checkpoints(ctx)
	if err != nil {
		return nil, err
	}
	out := []Checkpoint{}
	for _, data := range datas {
		var cp Checkpoint
		if err := json.Unmarshal([]byte(data), &cp); err != nil {
			return nil, fmt.Errorf("a checkpoint of %s is damaged: %w", h.name, err)
		}
		out = append(out, cp)
	}
	return out, nil
}

// Checkpoints lists a workset's checkpoints, oldest first.
func Checkpoints(ctx context.Context, e *Env, name string) ([]Checkpoint, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	return h.checkpoints(ctx)
}

type docNow struct {
	ref       index.DocRef
	path, oid string
}

// currentDoc is the document of key as the index holds it now (nil when
// it holds none).
func currentDoc(ctx context.Context, e *Env, key string) (*docNow, error) {
	ref, oid, err := e.Index.DocByKey(ctx, key)
	if err != nil || ref == nil {
		return nil, err
	}
	return &docNow{ref: *ref, path: ref.Path, oid: oid}, nil
}

var planBoxRE = lazyre.MustCompile(`^([ \t]*)(?:[-*+]|[0-9]{1,9}[.)])[ \t]+\[([ xX])\][ \t]+(.*)$`)

// planItems reads the checkbox items of plan.md (nothing when it is gone).
func (h *handle) planItems() ([]PlanItem, error) {
	data, err := readOwn(h.root, h.dir, PlanFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []PlanItem
	inFence := false
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		if planFenceRE.MatchString(line) {
			inFence = !inFence
			continue
		}
		if m := planBoxRE.FindStringSubmatch(line); m != nil && !inFence {
			out = append(out, PlanItem{Text: strings.TrimSpace(m[3]), Done: m[2] != " ", Depth: len(strings.ReplaceAll(m[1], "\t", "  ")) / 2})
		}
	}
	return out, nil
}

// ResumeOptions bound a resume pack.
type ResumeOptions struct {
	// Budget is the pack's size in estimated tokens (characters / 4); 0
	// means no bound.
	Budget int
}

// Resume is what the next session needs: canon workset resume.
type Resume struct {
	Name       string          `json:"name"`
	Head       string          `json:"head"`
	Since      *Checkpoint     `json:"since"`      // the last checkpoint; nil: since the workset was built
	SinceAt    time.Time       `json:"since_at"`   // its time, or the build's
	SinceRef   string          `json:"since_head"` // its commit, or the build's
	Goal       Goal            `json:"goal"`
	Plan       PlanProgress    `json:"plan"`
	Notes      []NoteLine      `json:"notes"`   // decisions, risks and errors from notes.md
	Changes    []MemberChange  `json:"changes"` // members changed since
	New        []index.DocRef  `json:"new"`     // documents the workset would now select
	Pending    []FindingState  `json:"unpromoted"`
	Cut        []string        `json:"cut"` // what the budget left out
	Budget     int             `json:"budget"`
	Tokens     int             `json:"tokens"` // estimated size of the text rendering
	Points     int             `json:"checkpoints"`
	members    map[string]bool // member keys
	rendered   string
	cutChanges bool // the budget left changed members out
}

// Goal is what the workset was made for.
type Goal struct {
	Seeds    []index.DocRef `json:"seeds"`
	Query    string         `json:"query,omitempty"`
	Template string         `json:"template,omitempty"`
}

// PlanProgress sums up plan.md.
type PlanProgress struct {
	Done  int        `json:"done"`
	Total int        `json:"total"`
	Next  string     `json:"next,omitempty"` // the first unchecked step
	Open  []PlanItem `json:"open"`           // the unchecked steps, in order
}

// NoteLine is a line of notes.md the next session must not miss.
type NoteLine struct {
	Kind   string `json:"kind"` // decision, risk, error
	Target string `json:"target,omitempty"`
	Text   string `json:"text"`
	Line   int    `json:"line"`
}

// MemberChange is a member that changed since the checkpoint.
type MemberChange struct {
	index.DocRef
	How      string          `json:"how"` // modified, renamed, deleted
	From     string          `json:"from_path,omitempty"`
	Commits  []CommitLine    `json:"commits"`  // that touched it, newest first
	Sections []SectionChange `json:"sections"` // changed, added or removed
	Working  bool            `json:"uncommitted,omitempty"`
}

// CommitLine is one commit.
type CommitLine struct {
	Commit  string `json:"commit"`
	Subject string `json:"subject"`
}

// SectionChange is a section of a member whose text changed.
type SectionChange struct {
	Slug    string `json:"slug"`
	Heading string `json:"heading"`
	How     string `json:"how"` // changed, added, removed
}

var errorLineRE = lazyre.MustCompile(`(?i)^[ \t]*(?:[-*+][ \t]+)?(error|failed|failure|blocker)[ \t]*:[ \t]*(.+)$`)

// BuildResume assembles the resume pack of a workset.
func BuildResume(ctx context.Context, e *Env, name string, opt ResumeOptions) (*Resume, error) {
	h, snap, err := openSnapshot(ctx, e, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	return h.resume(ctx, e, snap, opt)
}

// openSnapshot opens a workset and reads its snapshot; the caller closes
// the handle.
func openSnapshot(ctx context.Context, e *Env, name string) (*handle, *snapshot, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	snap, err := h.snapshot(ctx, e.Now)
	if err != nil {
		h.close()
		return nil, nil, err
	}
	return h, snap, nil
}

// openMembers opens a workset and reads its members; the caller closes
// the handle.
func openMembers(ctx context.Context, root, name string) (*handle, []Member, error) {
	h, err := openHandle(ctx, root, name)
	if err != nil {
		return nil, nil, err
	}
	ms, err := h.members(ctx)
	if err != nil {
		h.close()
		return nil, nil, err
	}
	return h, ms, nil
}

// snapshot is what a workset holds: its summary, members and checkpoints.
type snapshot struct {
	info    *Info
	members []Member
	points  []Checkpoint
}

func (h *handle) snapshot(ctx context.Context, now time.Time) (*snapshot, error) {
	var sn snapshot
	var err error
	if sn.info, err = h.info(ctx, now); err != nil {
		return nil, err
	}
	if sn.members, err = h.members(ctx); err != nil {
		return nil, err
	}
	if sn.points, err = h.checkpoints(ctx); err != nil {
		return nil, err
	}
	return &sn, nil
}

func (h *handle) resume(ctx context.Context, e *Env, snap *snapshot, opt ResumeOptions) (*Resume, error) {
	name, info, ms, cps := h.name, snap.info, snap.members, snap.points
	var err error
	r := &Resume{Name: name, Head: e.Head, Budget: opt.Budget, Points: len(cps), members: map[string]bool{},
		Goal:  Goal{Seeds: []index.DocRef{}, Query: info.Spec.Query, Template: info.Spec.Template},
		Notes: []NoteLine{}, Changes: []MemberChange{}, New: []index.DocRef{}, Pending: []FindingState{}, Cut: []string{}}
	// What the work started from: the last checkpoint, else the build.
	base := map[string]CheckpointMember{}
	if len(cps) > 0 {
		last := cps[len(cps)-1]
		r.Since, r.SinceAt, r.SinceRef = &last, last.At, last.Head
		if err := validCheckpoint(last); err != nil {
			return nil, fmt.Errorf("workset %s: %w; canon will not pass it to git: remove the workset (canon workset rm %s --force) and make it again", name, err, name)
		}
		for _, m := range last.Members {
			base[m.Key] = m
		}
	} else {
		r.SinceAt, r.SinceRef = info.BuiltAt, info.Head
		if info.Head != "" && !index.IsObjectID(info.Head) {
			return nil, fmt.Errorf("workset %s says it was built at %q, which is not a commit id; canon will not pass it to git: remove the workset (canon workset rm %s --force) and make it again", name, shorten(info.Head), name)
		}
		for _, mb := range ms {
			base[mb.Key] = CheckpointMember{Key: mb.Key, ID: mb.ID, Path: mb.Path, OID: mb.OID}
		}
	}
	for _, mb := range ms {
		r.members[mb.Key] = true
		if mb.Seed {
			ref := mb.DocRef
			if cur, err := currentDoc(ctx, e, mb.Key); err == nil && cur != nil {
				ref = cur.ref // its title and state as they are now
			}
			r.Goal.Seeds = append(r.Goal.Seeds, ref)
		}
	}
	items, err := h.planItems()
	if err != nil {
		return nil, err
	}
	r.Plan.Open = []PlanItem{}
	for _, it := range items {
		r.Plan.Total++
		if it.Done {
			r.Plan.Done++
			continue
		}
		if r.Plan.Next == "" {
			r.Plan.Next = it.Text
		}
		r.Plan.Open = append(r.Plan.Open, it)
	}
	if err := r.readNotes(h); err != nil {
		return nil, err
	}
	if r.Changes, err = e.memberChanges(ctx, ms, base, r.SinceRef); err != nil {
		return nil, err
	}
	if sel, err := e.selectMembers(ctx, info.Spec); err == nil {
		for _, mb := range sel.members {
			if !r.members[mb.Key] {
				r.New = append(r.New, mb.DocRef)
			}
		}
	} else if !errors.Is(err, ErrEmpty) {
		return nil, err
	}
	if fs, err := h.findings(ctx); err == nil {
		for _, f := range fs {
			if !f.Promoted {
				r.Pending = append(r.Pending, f)
			}
		}
	}
	r.fit()
	return r, nil
}

// readNotes picks from notes.md the decisions and risks (findings of
// those kinds) and the lines that record an error ("error:", "failed:",
// "blocker:"), which are the agent's own and never promoted.
func (r *Resume) readNotes(h *handle) error {
	data, err := readOwn(h.root, h.dir, NotesFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	text := string(data)
	for _, f := range ParseNotes(text) {
		if f.Kind == "decision" || f.Kind == "risk" {
			r.Notes = append(r.Notes, NoteLine{Kind: f.Kind, Target: f.Target, Text: f.Text, Line: f.Line})
		}
	}
	inFence := false
	for i, line := range withoutComments(strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")) {
		if fenceRE.MatchString(line) {
			inFence = !inFence
			continue
		}
		if m := errorLineRE.FindStringSubmatch(line); m != nil && !inFence {
			r.Notes = append(r.Notes, NoteLine{Kind: "error", Text: collapse(m[2]), Line: i + 1})
		}
	}
	sort.SliceStable(r.Notes, func(a, b int) bool { return r.Notes[a].Line < r.Notes[b].Line })
	return nil
}

// memberChanges compares each member with its state at the base: the
// commits since that touched it and the sections whose text differs.
func (e *Env) memberChanges(ctx context.Context, ms []Member, base map[string]CheckpointMember, since string) ([]MemberChange, error) {
	out := []MemberChange{}
	for _, mb := range ms {
		was, ok := base[mb.Key]
		if !ok {
			continue // joined after the checkpoint
		}
		cur, err := currentDoc(ctx, e, mb.Key)
		if err != nil {
			return nil, err
		}
		c := MemberChange{DocRef: mb.DocRef, Commits: []CommitLine{}, Sections: []SectionChange{}}
		switch {
		case cur == nil:
			c.How = "deleted"
		case cur.oid != was.OID:
			c.How = "modified"
			if cur.path != was.Path {
				c.How, c.From = "renamed", was.Path
			}
		case cur.path != was.Path:
			c.How, c.From = "renamed", was.Path
		default:
			continue
		}
		if cur != nil {
			c.DocRef = cur.ref
		}
		paths := []string{was.Path}
		if cur != nil && cur.path != was.Path {
			paths = append(paths, cur.path)
		}
		// since comes from the workset (a checkpoint, the manifest): only
		// an object id canon checked reaches git, after --end-of-options,
		// and the paths as literal pathspecs.
		if e.Git != nil && since != e.Head && index.IsObjectID(since) && index.IsObjectID(e.Head) {
			args := []string{"log", "--format=%h %s", "--end-of-options", since + ".." + e.Head, "--"}
			for _, p := range paths {
				args = append(args, ":(literal)"+p)
			}
			log, err := e.Git(ctx, args...)
			if err == nil {
				for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
					if h, s, ok := strings.Cut(line, " "); ok {
						c.Commits = append(c.Commits, CommitLine{Commit: h, Subject: s})
					}
				}
			}
		}
		if cur != nil && e.Git != nil && index.IsObjectID(was.OID) {
			old, err := e.Git(ctx, "cat-file", "blob", "--end-of-options", was.OID)
			if err == nil {
				now, err := scan.ReadDocument(e.Root, e.Config, cur.path)
				if err == nil {
					c.Sections = sectionChanges(was.Path, []byte(old), cur.path, now)
					c.Working = len(c.Commits) == 0
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// sectionChanges lists the sections whose text differs between two
// versions of a document, by slug, in the new version's order (removed
// ones last).
func sectionChanges(oldPath string, old []byte, newPath string, now []byte) []SectionChange {
	type sec struct{ heading, text string }
	read := func(path string, src []byte) (map[string]sec, []string) {
		d := markdown.Parse(path, src, &markdown.Options{})
		m := map[string]sec{}
		var order []string
		for _, s := range d.Body.Sections {
			h := ""
			if s.Heading >= 0 {
				h = d.Body.Headings[s.Heading].Text
			}
			if _, dup := m[s.Slug]; !dup {
				order = append(order, s.Slug)
			}
			m[s.Slug] = sec{h, s.Text}
		}
		return m, order
	}
	was, _ := read(oldPath, old)
	is, order := read(newPath, now)
	out := []SectionChange{}
	for _, slug := range order {
		s := is[slug]
		o, ok := was[slug]
		switch {
		case !ok:
			out = append(out, SectionChange{Slug: slug, Heading: s.heading, How: "added"})
		case o.text != s.text:
			out = append(out, SectionChange{Slug: slug, Heading: s.heading, How: "changed"})
		}
	}
	var gone []string
	for slug := range was {
		if _, ok := is[slug]; !ok {
			gone = append(gone, slug)
		}
	}
	sort.Strings(gone)
	for _, slug := range gone {
		out = append(out, SectionChange{Slug: slug, Heading: was[slug].heading, How: "removed"})
	}
	return out
}

// fit renders the pack and, while it is over the budget, leaves out what
// matters least first: documents the workset would now select, unpromoted
// findings, plan steps after the next, changed members, notes. What was
// left out is counted in Cut.
func (r *Resume) fit() {
	cut := map[string]int{}
	lists := []struct {
		what string
		n    func() int
		drop func()
	}{
		{"new document", func() int { return len(r.New) }, func() { r.New = r.New[:len(r.New)-1] }},
		{"unpromoted finding", func() int { return len(r.Pending) }, func() { r.Pending = r.Pending[:len(r.Pending)-1] }},
		{"open plan step", func() int { return max(len(r.Plan.Open)-1, 0) }, func() { r.Plan.Open = r.Plan.Open[:len(r.Plan.Open)-1] }},
		{"commit", func() int {
			n := 0
			for _, c := range r.Changes {
				n += max(len(c.Commits)-1, 0)
			}
			return n
		}, func() {
			for i := len(r.Changes) - 1; i >= 0; i-- {
				if c := &r.Changes[i]; len(c.Commits) > 1 {
					c.Commits = c.Commits[:len(c.Commits)-1]
					return
				}
			}
		}},
		{"changed member", func() int { return len(r.Changes) }, func() { r.Changes = r.Changes[:len(r.Changes)-1] }},
		{"note", func() int { return len(r.Notes) }, func() { r.Notes = r.Notes[:len(r.Notes)-1] }},
	}
	for {
		r.rendered = r.render()
		r.Tokens = (len(r.rendered) + 3) / 4
		if r.Budget <= 0 || r.Tokens <= r.Budget {
			break
		}
		dropped := false
		for _, l := range lists {
			if l.n() > 0 {
				l.drop()
				cut[l.what]++
				dropped = true
				break
			}
		}
		if !dropped {
			break // the rest is the goal and the next step: never cut
		}
	}
	r.cutChanges = cut["changed member"] > 0
	for _, l := range lists {
		if n := cut[l.what]; n == 1 {
			r.Cut = append(r.Cut, "1 "+l.what)
		} else if n > 1 {
			r.Cut = append(r.Cut, fmt.Sprintf("%d %ss", n, l.what))
		}
	}
	if len(r.Cut) > 0 {
		r.rendered = r.render()
		r.Tokens = (len(r.rendered) + 3) / 4
	}
}

// Text is the pack as Markdown, for the next session to read.
func (r *Resume) Text() string { return r.rendered }

// render writes the pack as Markdown: where it starts from, the goal and
// the plan, the notes, what changed, new documents, findings not yet
// promoted, and what the budget left out.
func (r *Resume) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Resume: %s\n\n", r.Name)
	when := r.SinceAt.UTC().Format("2006-01-02 15:04")
	if r.Since != nil {
		fmt.Fprintf(&b, "Since checkpoint %d of %d (%s, at %s", r.Since.Seq, r.Points, when, short(r.Since.Head))
		if r.Since.Note != "" {
			fmt.Fprintf(&b, ": %q", r.Since.Note)
		}
		fmt.Fprintf(&b, "); HEAD is %s.\n", short(r.Head))
	} else {
		fmt.Fprintf(&b, "Since the workset was built (%s, at %s); no checkpoint yet. HEAD is %s.\n", when, short(r.SinceRef), short(r.Head))
	}
	r.writeGoal(&b)
	if len(r.Notes) > 0 {
		b.WriteString("\n## Decisions, risks and errors (notes.md)\n\n")
		for _, n := range r.Notes {
			target := ""
			if n.Target != "" {
				target = " [" + human.Quote(n.Target) + "]"
			}
			fmt.Fprintf(&b, "- %s%s: %s (line %d)\n", n.Kind, target, human.Quote(n.Text), n.Line)
		}
	}
	r.writeChanges(&b)
	if len(r.New) > 0 {
		b.WriteString("\n## New documents the workset would now select\n\n")
		for _, d := range r.New {
			fmt.Fprintf(&b, "- %s  %s  (%s)\n", human.Quote(d.ID), human.Quote(d.Title), human.QuotePath(d.Path))
		}
	}
	if len(r.Pending) > 0 {
		b.WriteString("\n## Findings not yet promoted\n\n")
		for _, f := range r.Pending {
			kind := ""
			if f.Kind != "worklog" {
				kind = f.Kind + ": "
			}
			fmt.Fprintf(&b, "- [%s] %s%s\n", human.Quote(f.Target), kind, human.Quote(f.Text))
		}
	}
	if len(r.Cut) > 0 {
		fmt.Fprintf(&b, "\nLeft out to stay within %d tokens: %s.\n", r.Budget, strings.Join(r.Cut, ", "))
	}
	return b.String()
}

// writeGoal writes the goal (the workset's seeds, search or template) and
// where its plan stands.
func (r *Resume) writeGoal(b *strings.Builder) {
	b.WriteString("\n## Goal\n\n")
	for _, s := range r.Goal.Seeds {
		state := s.Kind
		if s.State != "" {
			state += ", " + s.State
		}
		fmt.Fprintf(b, "- %s  %s  (%s)\n", human.Quote(s.ID), human.Quote(s.Title), human.Quote(state))
	}
	if r.Goal.Query != "" {
		fmt.Fprintf(b, "- search: %q\n", r.Goal.Query)
	}
	if r.Goal.Template != "" {
		fmt.Fprintf(b, "- template: %s\n", r.Goal.Template)
	}
	fmt.Fprintf(b, "\n## Plan: %d of %d steps done\n\n", r.Plan.Done, r.Plan.Total)
	switch {
	case r.Plan.Total == 0:
		b.WriteString("plan.md has no steps.\n")
	case r.Plan.Next == "":
		b.WriteString("Every step is ticked.\n")
	default:
		fmt.Fprintf(b, "Next: %s\n", human.Quote(r.Plan.Next))
		for _, it := range r.Plan.Open[1:] {
			fmt.Fprintf(b, "%s- [ ] %s\n", strings.Repeat("  ", it.Depth), human.Quote(it.Text))
		}
	}
}

// writeChanges writes how each member changed since: by which commits or
// in the working tree, and in which sections.
func (r *Resume) writeChanges(b *strings.Builder) {
	b.WriteString("\n## Changed since\n\n")
	if len(r.Changes) == 0 && !r.cutChanges {
		b.WriteString("No member changed.\n")
	}
	for _, c := range r.Changes {
		how := c.How
		if c.From != "" {
			how += " from " + human.QuotePath(c.From)
		}
		switch {
		case len(c.Commits) == 1:
			how += " by 1 commit"
		case len(c.Commits) > 1:
			how += fmt.Sprintf(" by %d commits", len(c.Commits))
		case c.Working:
			how += " in the working tree (not committed)"
		}
		fmt.Fprintf(b, "- %s  %s: %s\n", human.Quote(c.ID), human.QuotePath(c.Path), how)
		for _, cm := range c.Commits {
			fmt.Fprintf(b, "  - %s %s\n", human.Quote(cm.Commit), human.Quote(cm.Subject))
		}
		if len(c.Sections) > 0 {
			var parts []string
			for _, s := range c.Sections {
				name := "#" + human.Quote(s.Slug)
				if s.Slug == "" {
					name = "(before the first heading)"
				}
				parts = append(parts, name+" "+s.How)
			}
			fmt.Fprintf(b, "  - sections: %s\n", strings.Join(parts, ", "))
		}
	}
}

// SeedKeys reads the node keys of a workset's seeds (for query templates
// that anchor on a workset).
func SeedKeys(ctx context.Context, e *Env, name string) ([]string, error) {
	h, ms, err := e.openMembers(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	var out []string
	for _, mb := range ms {
		if mb.Seed {
			out = append(out, mb.Key)
		}
	}
	return out, nil
}
