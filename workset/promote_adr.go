package workset

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// Promoting a decision as an ADR of its own: the repository's ADR series
// (numbers, digits, folders), where the new record goes, and its text.

// adrSeries is what the repository's ADRs say about the next one: the
// highest number, the digits, and where the ADRs live.
type adrSeries struct {
	docs    []adrDoc
	max     int
	width   int
	taken   map[string]bool // paths and ids planned in this run
	folders []string        // with no ADR yet: the folders for decisions (DecisionFolders)
}

type adrDoc struct {
	ident, path string
	n           int
}

var (
	adrIDRE   = lazyre.MustCompile(`(?i)^ADR-(\d+)$`)
	adrStemRE = lazyre.MustCompile(`(?i)^(?:ADR-)?(\d+)`)
	slugRE    = lazyre.MustCompile(`[a-z0-9]+`)
	// numberedRE reads ADR file names that start with the number: 0007-slug.md.
	numberedRE = lazyre.MustCompile(`^(\d+)([-_])`)
)

func (p *planner) loadADRs() error {
	if p.adrs != nil {
		return nil
	}
	adrs, err := p.e.Index.IdentsOfKind(p.ctx, "adr")
	if err != nil {
		return err
	}
	s := &adrSeries{width: 4, taken: map[string]bool{}}
	for _, a := range adrs {
		if a.Ident == "" && markdown.DatedName(markdown.Stem(a.Path)) {
			continue // 20240301-use-x.md: a day, not a number to follow (log4brains)
		}
		d := adrDoc{ident: a.Ident, path: a.Path}
		digits := ""
		if m := adrIDRE.FindStringSubmatch(d.ident); m != nil {
			digits = m[1]
		} else if m := adrStemRE.FindStringSubmatch(markdown.Stem(d.path)); m != nil {
			digits = m[1]
		}
		if digits != "" {
			d.n, _ = strconv.Atoi(digits)
			if d.n > s.max {
				s.max, s.width = d.n, max(4, len(digits))
			}
		}
		s.docs = append(s.docs, d)
	}
	if len(s.docs) == 0 {
		if s.folders, err = p.e.Index.DecisionFolders(p.ctx); err != nil {
			return err
		}
	}
	p.adrs = s
	return nil
}

// adrPlace picks the ADR folder for an item: the one holding ADRs that
// shares the longest leading path with the item (a product's own
// decisions/), then the one holding most; with no ADR yet, a folder of
// documents named decisions, adr or adrs (the nearest, then the
// shallowest); else "decisions" under the first root. The file name follows that folder's
// newest ADR: ADR-0007_slug.md, ADR-0007-slug.md, 0007-slug.md.
func (p *planner) adrPlace(item *index.DocRef, id string, n int, slug string) string {
	type folder struct {
		dir    string
		count  int
		sample adrDoc
	}
	folders := map[string]*folder{}
	for _, d := range p.adrs.docs {
		dir := path.Dir(d.path)
		f := folders[dir]
		if f == nil {
			f = &folder{dir: dir}
			folders[dir] = f
		}
		f.count++
		if d.n >= f.sample.n {
			f.sample = d
		}
	}
	var best *folder
	score := func(f *folder) int { return commonSegments(path.Dir(item.Path), f.dir) }
	for _, f := range folders {
		if best == nil || score(f) > score(best) || (score(f) == score(best) && (f.count > best.count || (f.count == best.count && f.dir < best.dir))) {
			best = f
		}
	}
	dir, name := "decisions", id+"_"+slug+".md"
	if roots := p.e.Config.Roots; len(roots) > 0 && roots[0] != "." {
		dir = path.Join(roots[0], "decisions")
	}
	if best == nil && len(p.adrs.folders) > 0 {
		// No ADR yet, but a folder for decisions (backlog/decisions):
		// the one nearest the item, then the shallowest.
		dir = p.adrs.folders[0]
		for _, f := range p.adrs.folders[1:] {
			a, b := commonSegments(path.Dir(item.Path), f), commonSegments(path.Dir(item.Path), dir)
			if a > b || a == b && strings.Count(f, "/") < strings.Count(dir, "/") {
				dir = f
			}
		}
	}
	if best != nil {
		dir = best.dir
		stem := markdown.Stem(best.sample.path)
		ident := best.sample.ident
		switch m := numberedRE.FindStringSubmatch(stem); {
		case ident != "" && strings.EqualFold(stem, ident):
			name = id + ".md"
		case ident != "" && len(stem) > len(ident) && strings.EqualFold(stem[:len(ident)], ident) && strings.ContainsAny(stem[len(ident):len(ident)+1], "-_"):
			name = id + stem[len(ident):len(ident)+1] + slug + ".md"
		case m != nil:
			name = fmt.Sprintf("%0*d%s%s.md", len(m[1]), n, m[2], slug)
		}
	}
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

func commonSegments(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// adrSlug makes a file-name slug of a decision's first words.
func adrSlug(text string) string {
	// Words are runs of letters and digits; of each, the ASCII part, so
	// that "Ünïcode" becomes "ncode" rather than two words.
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if a := strings.Join(slugRE.FindAllString(w, -1), ""); a != "" {
			words = append(words, a)
		}
	}
	var b strings.Builder
	for _, w := range words {
		if b.Len() > 0 && b.Len()+1+len(w) > 48 {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(w)
	}
	if b.Len() == 0 {
		return "decision"
	}
	return b.String()
}

// promoteADR turns a decision into a new ADR: the next free number, a
// template body, related_items: naming the item, and the ADR appended to
// the item's decisions:.
func (p *planner) promoteADR(o *Outcome, item *edit.File, text string) error {
	if err := p.loadADRs(); err != nil {
		return err
	}
	if present, err := p.existingADR(o.Dest, text); err != nil || present != nil {
		if present != nil {
			o.Status, o.Reason, o.LinkedFrom, o.Dest = StatusPresent, fmt.Sprintf("%s already records it", present.ID), o.Dest, present
		}
		return err
	}
	slug := adrSlug(o.Text)
	var id, rel string
	for n := p.adrs.max + 1; ; n++ {
		id = fmt.Sprintf("ADR-%0*d", p.adrs.width, n)
		rel = p.adrPlace(o.Dest, id, n, slug)
		if p.adrs.taken[id] || p.adrs.taken[rel] {
			continue
		}
		if refs, err := p.e.Index.Find(p.ctx, id); err != nil {
			return err
		} else if len(refs) > 0 {
			continue
		}
		if _, err := os.Lstat(filepath.Join(p.e.Root, filepath.FromSlash(rel))); err == nil {
			continue
		}
		break
	}
	if _, err := edit.Writable(p.e.Root, rel, p.opt.Scope, false, false); err != nil {
		return p.refuse(o, "the new ADR cannot be written: %v", err)
	}
	ref, err := p.refTo(o.Dest)
	if err != nil {
		return err
	}
	_, err = p.set.AddToList(item.Path, "decisions", id)
	if err != nil {
		return p.refuse(o, "%s cannot list the new ADR in decisions: (%v); promote it without --adr", o.Dest.ID, err)
	}
	p.adrs.taken[id], p.adrs.taken[rel] = true, true
	if n, _ := strconv.Atoi(strings.TrimPrefix(id, "ADR-")); n > p.adrs.max {
		p.adrs.max = n
	}
	adr, err := p.set.Create(rel, p.adrBody(o, id, ref, text))
	if err != nil {
		return err
	}
	adr.Key, adr.Edits = id, 1
	o.LinkedFrom = o.Dest
	o.Dest = &index.DocRef{Key: id, ID: id, Path: rel, Kind: "adr", Title: text, State: "Proposed"}
	o.Section, o.Status = "Decision", StatusPromoted
	return nil
}

// existingADR finds an ADR that already records the decision for the item
// (same title, related to it): a promote interrupted before it recorded.
func (p *planner) existingADR(item *index.DocRef, text string) (*index.DocRef, error) {
	key, err := p.e.Index.KeyLinkingTo(p.ctx, item.Key, "adr", text)
	if err != nil || key == "" {
		return nil, err
	}
	refs, err := p.e.Index.Find(p.ctx, key)
	if err != nil || len(refs) != 1 {
		return nil, err
	}
	return &refs[0], nil
}

// refTo is the reference a frontmatter field should hold for a document:
// its id when that names it alone, ID@uidprefix when the id is shared,
// else its path.
func (p *planner) refTo(d *index.DocRef) (string, error) {
	refs, err := p.e.Index.Find(p.ctx, d.ID)
	if err != nil {
		return "", err
	}
	if len(refs) == 1 && refs[0].Key == d.Key {
		return d.ID, nil
	}
	v, err := p.e.Index.Show(p.ctx, d.Key, false)
	if err != nil {
		return "", err
	}
	if v.UID != "" {
		return d.ID + "@" + v.UID[:min(8, len(v.UID))], nil
	}
	return d.Path, nil
}

// adrBody is the new ADR: frontmatter (id, title, status Proposed, date,
// related_items), then Context, Decision and Consequences, the way this
// repository's own ADRs are laid out.
func (p *planner) adrBody(o *Outcome, id, itemRef, text string) []byte {
	// A finding is one line of UTF-8 text (ADR-0033) and the id and the
	// reference are canon's own: markdown.Scalar writes each of them.
	title, _ := markdown.Scalar(text, "yaml", '"')
	id, _ = markdown.Scalar(id, "yaml", 0)
	ref, _ := markdown.Scalar(itemRef, "yaml", 0)
	by := ""
	if p.opt.Agent != "" {
		by = " (agent " + p.opt.Agent + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "---\nid: %s\ntitle: %s\nstatus: Proposed\ndate: %s\nrelated_items: [%s]\n---\n\n", id, title, p.plan.At.Format("2006-01-02"), ref)
	fmt.Fprintf(&b, "# Context\n\nDecided for %s in workset %s%s and recorded by canon promote.\nDescribe the forces at play and the options that were weighed.\n\n", flatten(o.Dest.ID), p.plan.Workset, by)
	if strings.HasPrefix(text, "<") || strings.HasPrefix(text, "#") {
		text = "\\" + text // a paragraph, not an HTML block that hides the rest nor a heading
	}
	fmt.Fprintf(&b, "# Decision\n\n%s\n\n", text)
	b.WriteString("# Consequences\n\nTo be written: what becomes easier, what becomes harder.\n")
	return []byte(b.String())
}
