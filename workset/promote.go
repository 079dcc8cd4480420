package workset

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/scan"
)

// Where promote sends a finding (PromoteOptions.To); anything else is the
// repo-relative path of one document that takes them all.
const (
	ToSelf   = "self"   // the document the finding names
	ToParent = "parent" // its parent
	ToRoot   = "root"   // the top of its parent chain
	ToGroup  = "group"  // the document its group: field names (scope promotion)
	ToGlobal = "global" // the configured global document (scope promotion)
)

// What became of a finding (Outcome.Status).
const (
	StatusPromoted = "promoted" // appended (in a dry run: would be)
	StatusAlready  = "already"  // recorded as promoted before, or said twice in notes.md: skipped
	StatusPresent  = "present"  // the destination holds it already: recorded, nothing written
	StatusRefused  = "refused"  // not written; Reason says why
)

// Compared with the blob the workset was built from (Outcome.SinceBuilt).
const (
	SinceUnchanged = "unchanged"
	SinceChanged   = "changed"
	SinceUnknown   = "not a member" // the destination is not in the workset: nothing to compare
)

// ErrPromoteTarget says --to names no document promote may write.
var ErrPromoteTarget = errors.New("bad promote destination")

// PromoteOptions say where the findings go and how they are written.
type PromoteOptions struct {
	// To is ToSelf (or ""), ToParent, ToRoot, or the repo-relative path of
	// a document that takes every finding.
	To string
	// Agent names who found things in worklog lines; "" takes the
	// workset's agent.
	Agent string
	// ADR makes each decision: finding a new ADR linked both ways.
	ADR bool
	// Scope says which paths are documents (the configured roots, minus
	// what is excluded): promote reads and writes nothing else.
	Scope *scan.Scope
	// GlobalDocument is where ToGlobal writes (context.scopes.global_document).
	GlobalDocument string
}

// Outcome is what promote did (or would do) with one finding.
type Outcome struct {
	Finding
	Status string `json:"status"` // promoted, already, present, refused
	Reason string `json:"reason,omitempty"`
	// TargetDoc is the document the finding names.
	TargetDoc *index.DocRef `json:"target_doc,omitempty"`
	// Dest is where it went: the target, an ancestor, the --to document,
	// or a new ADR.
	Dest *index.DocRef `json:"dest,omitempty"`
	// LinkedFrom is the item whose decisions: lists a new ADR.
	LinkedFrom *index.DocRef `json:"linked_from,omitempty"`
	Section    string        `json:"dest_section,omitempty"` // the heading it went under
	Created    bool          `json:"section_created,omitempty"`
	DestLine   int           `json:"dest_line,omitempty"` // its line in the written file
	SinceBuilt string        `json:"since_built,omitempty"`
	PromotedAt *time.Time    `json:"promoted_at,omitempty"` // for already: when
}

// PromotePlan is every edit promote will make, computed without writing
// anything: Diff shows it, Write makes it, Record notes it in the workset.
type PromotePlan struct {
	Workset  string       `json:"workset"`
	Agent    string       `json:"agent,omitempty"`
	To       string       `json:"to"`
	At       time.Time    `json:"at"`
	Findings []Outcome    `json:"findings"`
	Files    []*edit.File `json:"files"`

	root  string
	scope *scan.Scope
	adr   bool // --adr: in the command said again
}

// Count says how many findings have the status.
func (p *PromotePlan) Count(status string) int {
	n := 0
	for _, o := range p.Findings {
		if o.Status == status {
			n++
		}
	}
	return n
}

// Paths are the files the plan writes, sorted.
func (p *PromotePlan) Paths() []string {
	out := []string{}
	for _, f := range p.Files {
		out = append(out, f.Path)
	}
	return out
}

// planner holds what PlanPromote looks things up in.
type planner struct {
	ctx     context.Context
	e       *Env
	h       *handle
	opt     PromoteOptions
	plan    *PromotePlan
	members map[string]*Member // by node key and by path
	set     *edit.Set          // the files it writes
	to      *index.DocRef      // the --to PATH document
	adrs    *adrSeries
}

// PlanPromote works out where each finding of the workset's notes.md goes
// and what the destination files will hold afterwards. It writes nothing:
// Diff, Write and Record do the rest. A finding is refused, with the
// reason, when its target names no document or two, was deleted, has no
// parent to climb to, or when the section it goes under was removed from
// a destination that changed since the workset was built.
func PlanPromote(ctx context.Context, e *Env, name string, opt PromoteOptions) (*PromotePlan, error) {
	if opt.Scope == nil {
		return nil, errors.New("promote: no scope")
	}
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	m, err := h.manifest(ctx)
	if err != nil {
		return nil, err
	}
	if opt.Agent != "" {
		if err := CheckAgent(opt.Agent); err != nil {
			return nil, err
		}
	} else {
		opt.Agent = flatAgent(m[mAgent]) // the manifest is read back, not given: made fit to write
	}
	if opt.To == "" {
		opt.To = ToSelf
	}
	p := &planner{ctx: ctx, e: e, h: h, opt: opt, members: map[string]*Member{}, set: edit.NewSet(e.Root, opt.Scope),
		plan: &PromotePlan{Workset: name, Agent: opt.Agent, To: opt.To, At: e.Now, Findings: []Outcome{}, Files: []*edit.File{},
			root: e.Root, scope: opt.Scope, adr: opt.ADR}}
	ms, err := h.members(ctx)
	if err != nil {
		return nil, err
	}
	for i := range ms {
		p.members[ms[i].Key] = &ms[i]
		p.members["path:"+ms[i].Path] = &ms[i]
	}
	switch opt.To {
	case ToSelf, ToParent, ToRoot, ToGroup:
	case ToGlobal:
		if opt.GlobalDocument == "" {
			return nil, fmt.Errorf("%w: there is no global document; set context.scopes.global_document in .canon/config.yaml to the document global knowledge goes into", ErrPromoteTarget)
		}
		if p.to, err = p.destination(opt.GlobalDocument); err != nil {
			return nil, err
		}
	default:
		if p.to, err = p.destination(opt.To); err != nil {
			return nil, err
		}
	}
	fs, err := h.findings(ctx)
	if err != nil {
		return nil, fmt.Errorf("read notes.md of %s: %w", name, err)
	}
	seen := map[string]int{} // hash → line, within this run
	for _, f := range fs {
		o := Outcome{Finding: f.Finding}
		switch line, dup := seen[f.Hash]; {
		case f.Promoted:
			o.Status, o.PromotedAt, o.Reason = StatusAlready, f.PromotedAt, "promoted before into "+f.DestPath
		case dup:
			o.Status, o.Reason = StatusAlready, fmt.Sprintf("the same finding as notes.md line %d", line)
		default:
			seen[f.Hash] = f.Line
			if err := p.promote(&o); err != nil {
				return nil, err
			}
		}
		p.plan.Findings = append(p.plan.Findings, o)
	}
	p.finish()
	return p.plan, nil
}

func (p *planner) refuse(o *Outcome, format string, args ...any) error {
	o.Status, o.Reason = StatusRefused, fmt.Sprintf(format, args...)
	return nil
}

// promote plans one finding. It fails only on errors of the machine (a
// database, a disk); everything about the finding is an outcome.
func (p *planner) promote(o *Outcome) error {
	// A finding is one line of plain text by the parser's reading; one
	// holding a control character (ESC, BEL), or longer than a note may
	// be, is not written as it is, nor changed: the person says.
	if err := plainError("the finding", o.Text, MaxNote); err != nil {
		return p.refuse(o, "%v", err)
	}
	target, why, err := p.resolve(o.Finding)
	if err != nil || why != "" {
		if err == nil {
			return p.refuse(o, "%s", why)
		}
		return err
	}
	o.TargetDoc = target
	dest, why, err := p.climb(target)
	if err != nil || why != "" {
		if err == nil {
			return p.refuse(o, "%s", why)
		}
		return err
	}
	o.Dest = dest
	fc, err := p.file(dest)
	if err != nil {
		return p.refuse(o, "%v", err)
	}
	o.SinceBuilt = p.since(dest, fc)
	// A "<!--" written into the document would hide what follows it
	// when the Markdown is rendered, up to the next "-->" anyone writes.
	text := uncommentable(o.Text)
	if dest.Key != target.Key {
		text = flatten(target.ID) + ": " + text // climbed: say where it came from
	}
	if p.opt.ADR && o.Kind == KindDecision {
		return p.promoteADR(o, fc, text)
	}
	sec := kindSection(o.Kind)
	if o.Kind == KindWorklog {
		sec = edit.Notes(p.ctx, p.e.Index, p.e.Root, p.e.Config, *dest, fc.After)
	}
	if o.SinceBuilt == SinceChanged && !edit.HasSection(fc.After, sec) && p.hadSection(dest, sec) {
		return p.refuse(o, "%s changed since the workset was built and its %s section is gone; the append has no anchor. Put the section back, or send the finding elsewhere (--to)", dest.ID, sec.Title)
	}
	put, err := p.set.AppendToSection(fc.Path, sec, p.entry(o.Kind, text), text)
	if err != nil {
		return p.refuse(o, "%v", err)
	}
	o.Section, o.Created, o.DestLine = put.Heading, put.Created, put.Line
	if put.Present {
		o.Status, o.Reason = StatusPresent, fmt.Sprintf("%s line %d already says it", fc.Path, put.Line)
		return nil
	}
	o.Status = StatusPromoted
	return nil
}

// kindSection is the section a finding of each kind goes under: the
// heading whose first word names it ("## Risks / Dependencies" takes
// risks); a worklog line goes where the repository keeps its notes
// (edit.Notes), a Worklog without them.
func kindSection(kind string) edit.Section {
	switch kind {
	case KindDecision:
		return edit.Decisions
	case KindRisk:
		return edit.Risks
	case KindFinding:
		return edit.Findings
	}
	return edit.Worklog
}

// entry is the line a finding becomes: a worklog line
// "YYYY-MM-DD HH:MM [agent=NAME] text", or for the other kinds
// "YYYY-MM-DD [agent=NAME] text" (a list item under the kind's section).
func (p *planner) entry(kind, text string) string {
	layout := "2006-01-02"
	if kind == KindWorklog {
		layout = "2006-01-02 15:04"
	}
	s := p.plan.At.Format(layout)
	if p.opt.Agent != "" {
		s += " [agent=" + p.opt.Agent + "]"
	}
	return s + " " + text
}

// resolve finds the document a finding names in the repository's index.
// A target the index no longer knows is looked up in the workset: a
// document renamed since is followed by its key (or, without an id, by
// its content); one deleted since says so.
func (p *planner) resolve(f Finding) (*index.DocRef, string, error) {
	ref := f.Target
	if i := strings.IndexByte(ref, '#'); i > 0 {
		ref = ref[:i] // [[target#heading]]
	}
	refs, err := p.e.Index.Find(p.ctx, ref)
	if err != nil {
		return nil, "", err
	}
	switch {
	case len(refs) == 1:
		return &refs[0], "", nil
	case len(refs) > 1:
		why, err := p.ambiguous(f.Target, refs)
		return nil, why, err
	}
	old, err := p.h.st.Find(p.ctx, ref)
	if err != nil || len(old) != 1 {
		return nil, fmt.Sprintf("no document is %s (by id, uid, path or file name); correct the target in notes.md", f.Target), err
	}
	if now, err := p.e.Index.Find(p.ctx, old[0].Key); err != nil || len(now) == 1 {
		if len(now) == 1 {
			return &now[0], "", nil
		}
		return nil, "", err
	}
	if m := p.members[old[0].Key]; m != nil {
		// The one document holding the member's content, under a new key.
		key, err := p.e.Index.KeyOfBlob(p.ctx, m.OID)
		if err == nil && key != "" {
			if now, err := p.e.Index.Find(p.ctx, key); err == nil && len(now) == 1 {
				return &now[0], "", nil
			}
		}
	}
	return nil, fmt.Sprintf("%s was deleted since the workset was built (it was %s)", f.Target, old[0].Path), nil
}

// ambiguous names the candidates of a target two documents answer to, in
// the ID@uidprefix form that tells them apart (their paths without uids).
func (p *planner) ambiguous(target string, refs []index.DocRef) (string, error) {
	uids := make([]string, len(refs))
	for i, r := range refs {
		v, err := p.e.Index.Show(p.ctx, r.Key, false)
		if err != nil {
			return "", err
		}
		uids[i] = v.UID
	}
	n := 8
	for ; n < 64; n++ {
		seen, clash := map[string]bool{}, false
		for _, u := range uids {
			k := strings.ToLower(u[:min(n, len(u))])
			clash = clash || (u != "" && seen[k])
			seen[k] = true
		}
		if !clash {
			break
		}
	}
	var names []string
	for i, r := range refs {
		if u := uids[i]; u != "" {
			names = append(names, fmt.Sprintf("%s@%s (%s)", r.ID, u[:min(n, len(u))], r.Path))
		} else {
			names = append(names, r.Path)
		}
	}
	return fmt.Sprintf("%s names %d documents: %s; write one of these as the target in notes.md", target, len(refs), strings.Join(names, ", ")), nil
}

// climb finds the destination of a finding for --to.
func (p *planner) climb(target *index.DocRef) (*index.DocRef, string, error) {
	switch p.opt.To {
	case ToSelf:
		return target, "", nil
	case ToParent:
		parent, why, err := p.parent(target)
		if err != nil || why != "" {
			return nil, why, err
		}
		if parent == nil {
			return nil, fmt.Sprintf("%s has no parent to climb to (--to parent)", target.ID), nil
		}
		return parent, "", nil
	case ToGroup:
		group, why, err := p.edge(target, "group")
		if err != nil || why != "" {
			return nil, why, err
		}
		if group == nil {
			return nil, fmt.Sprintf("%s names no group (a group: field) to promote to (--scope group)", target.ID), nil
		}
		return group, "", nil
	case ToRoot:
		cur, seen := target, map[string]bool{target.Key: true}
		for {
			parent, why, err := p.parent(cur)
			if err != nil || why != "" {
				return nil, why, err
			}
			if parent == nil || seen[parent.Key] {
				return cur, "", nil
			}
			seen[parent.Key] = true
			cur = parent
		}
	}
	return p.to, "", nil
}

// parent is the document the parent field of ref names; nil without one.
func (p *planner) parent(ref *index.DocRef) (*index.DocRef, string, error) {
	return p.edge(ref, "parent")
}

// edge is the document ref's first edge of a type names (parent, group);
// nil without one.
func (p *planner) edge(ref *index.DocRef, typ string) (*index.DocRef, string, error) {
	v, err := p.e.Index.Show(p.ctx, ref.Key, false)
	if err != nil {
		return nil, "", err
	}
	for _, e := range v.Outgoing {
		if e.Type != typ {
			continue
		}
		if e.Other == nil || (e.Status != "ok" && e.Status != "self") {
			return nil, fmt.Sprintf("the %s of %s, %s, is %s in the repository; fix it before climbing", typ, ref.ID, e.Raw, e.Status), nil
		}
		o := *e.Other
		return &o, "", nil
	}
	return nil, "", nil
}

// destination checks a --to PATH: a document of the index, inside the
// roots, a regular file.
func (p *planner) destination(rel string) (*index.DocRef, error) {
	rel = filepath.ToSlash(rel)
	if _, err := edit.Writable(p.e.Root, rel, p.opt.Scope, true, false); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPromoteTarget, err)
	}
	refs, err := p.e.Index.Find(p.ctx, rel)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if r.Path == rel {
			return &r, nil
		}
	}
	return nil, fmt.Errorf("%w: %s is not a document canon indexes (a file canon skips, or one the index has not seen: run canon sync)", ErrPromoteTarget, rel)
}

// file is the planned content of a destination, read on first use.
func (p *planner) file(ref *index.DocRef) (*edit.File, error) {
	fc, err := p.set.Open(ref.Path)
	if err != nil {
		return nil, err
	}
	fc.Key = ref.Key
	return fc, nil
}

// since compares a destination, as promote first read it, with the blob
// the workset was built from.
func (p *planner) since(dest *index.DocRef, fc *edit.File) string {
	m := p.members[dest.Key]
	if m == nil {
		m = p.members["path:"+dest.Path]
	}
	switch {
	case m == nil:
		return SinceUnknown
	case m.OID == scan.BlobOID(fc.Before):
		return SinceUnchanged
	}
	return SinceChanged
}

// hadSection reports whether the workset's copy of a member had the
// section a finding of this kind goes under: if it had and the document
// now has not, someone removed it.
func (p *planner) hadSection(dest *index.DocRef, sec edit.Section) bool {
	m := p.members[dest.Key]
	if m == nil {
		m = p.members["path:"+dest.Path]
	}
	if m == nil {
		return false
	}
	v, err := p.h.st.Show(p.ctx, m.Key, false)
	if err != nil {
		return false
	}
	for _, s := range v.Sections {
		if s.Level > 0 && sec.Names(s.Heading) {
			return true
		}
	}
	return false
}

// finish sets updated: in every existing file that changed and puts the
// files in path order.
func (p *planner) finish() {
	p.set.Touch(p.plan.At)
	p.plan.Files = p.set.Files()
}

// Diff is the unified diff of every file the plan writes, in path order,
// with git's a/ and b/ prefixes (so `git apply` takes it).
func (p *PromotePlan) Diff() string { return edit.Diff(p.Files) }

// Write makes the plan's edits all or none through the edit engine
// (edit.Apply): each file through a temporary file in its folder and a
// rename, keeping its mode, after every one is proven still as promote
// read it; a write that fails, or a process killed midway, leaves every
// file as it was or, finished by the next command, every one written.
// The findings are recorded in the workset in the same journaled step,
// and the index takes the files. It returns the paths written.
func (p *PromotePlan) Write(ctx context.Context, repo Repository) ([]string, error) {
	var part *edit.Part
	if r := p.promotions(); r != nil {
		part = &edit.Part{Name: promotedPart, Data: r, Make: recordPromoted(p.root)}
	}
	return edit.Apply(ctx, repo, p.root, p.Files, p.command(), part)
}

// command is the promote as a person types it again.
func (p *PromotePlan) command() string {
	c := "canon promote " + p.Workset
	if p.To != "" && p.To != ToSelf {
		c += " --to " + p.To
	}
	if p.adr {
		c += " --adr"
	}
	return c
}

// Record notes in the workset every finding the plan found present
// without writing a file (Write records those it wrote): promoting again
// skips them.
func (p *PromotePlan) Record(ctx context.Context) error {
	r := p.promotions()
	if r == nil {
		return nil
	}
	return RecordPromoted(ctx, p.root, p.Workset, r.Promotions)
}

// promotions are the findings the plan writes or found in place, as the
// workset records them once the files are written (nil: none).
func (p *PromotePlan) promotions() *promotedRecord {
	var ps []Promotion
	for _, o := range p.Findings {
		if o.Status != StatusPromoted && o.Status != StatusPresent {
			continue
		}
		ps = append(ps, Promotion{Finding: o.Finding, DestKey: o.Dest.Key, DestPath: o.Dest.Path, At: p.At, Agent: p.Agent})
	}
	if len(ps) == 0 {
		return nil
	}
	return &promotedRecord{Workset: p.Workset, Promotions: ps}
}
