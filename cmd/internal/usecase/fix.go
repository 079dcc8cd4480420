package usecase

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/edit"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/scan"
)

// FixPlan is what canon check --fix changes: the mechanical fixes of the
// findings that carry one (index.Fix), made with the edit engine's line
// edits (index/edit), each file read once and written once.
type FixPlan struct {
	Files   []*edit.File    `json:"files"`
	Fixed   []index.Problem `json:"fixed"`
	Skipped []SkippedFix    `json:"skipped,omitempty"`

	root  string
	scope *scan.Scope
}

// SkippedFix is a fix that could not be made as planned, and why: the file
// changed since it was checked, or the edit would not be minimal.
type SkippedFix struct {
	Finding index.Problem `json:"finding"`
	Why     string        `json:"why"`
}

// planFixes works out the edits that fix the findings that carry a fix,
// without writing. A file whose fixes cannot all be made is edited only as
// far as they can; each one left out says why.
func planFixes(root string, scope *scan.Scope, findings []index.Problem) (*FixPlan, error) {
	p := &FixPlan{root: root, scope: scope}
	byPath := map[string][]index.Problem{}
	var paths []string
	for _, f := range findings {
		if f.Fix == nil {
			continue
		}
		if _, ok := byPath[f.Fix.Path]; !ok {
			paths = append(paths, f.Fix.Path)
		}
		byPath[f.Fix.Path] = append(byPath[f.Fix.Path], f)
	}
	sort.Strings(paths)
	for _, rel := range paths {
		if _, err := edit.Writable(root, rel, scope, true, false); err != nil {
			for _, f := range byPath[rel] {
				p.Skipped = append(p.Skipped, SkippedFix{f, err.Error()})
			}
			continue
		}
		before, err := scope.ReadDocument(rel)
		if err != nil {
			return nil, err
		}
		after, fixed, skipped := applyFixes(before, byPath[rel])
		p.Fixed = append(p.Fixed, fixed...)
		p.Skipped = append(p.Skipped, skipped...)
		if string(after) != string(before) {
			p.Files = append(p.Files, &edit.File{Path: rel, Edits: len(fixed), Before: before, After: after})
		}
	}
	return p, nil
}

// linkFixRule is the rule whose fix replaces a link's destination with
// the path of the file it is to name (index/check: the case git has, the
// path from the file's folder, the page's .md).
const linkFixRule = "broken-link"

// applyFixes makes one file's fixes: replacements on a line first, from
// the last position up so that earlier ones keep their columns
// (edit.Replace), then the list appends (edit.AddToList).
func applyFixes(content []byte, fs []index.Problem) ([]byte, []index.Problem, []SkippedFix) {
	var fixed []index.Problem
	var skipped []SkippedFix
	var lineFixes, listFixes []index.Problem
	for _, f := range fs {
		if f.Fix.Field != "" {
			listFixes = append(listFixes, f)
		} else {
			lineFixes = append(lineFixes, f)
		}
	}
	sort.SliceStable(lineFixes, func(i, j int) bool {
		a, b := lineFixes[i].Fix, lineFixes[j].Fix
		if a.Line != b.Line {
			return a.Line > b.Line
		}
		return a.Col > b.Col
	})
	rs := make([]edit.Replacement, len(lineFixes))
	for i, f := range lineFixes {
		rs[i] = edit.Replacement{Line: f.Fix.Line, Col: f.Fix.Col, Old: f.Fix.Old, New: f.Fix.New}
		if f.Rule == linkFixRule {
			// The fix names the file a link is to name: the engine
			// writes it as a destination and reads the link again.
			rs[i].In = f.Fix.Path
		}
	}
	out := content
	if len(rs) > 0 {
		var errs []error
		out, errs = edit.Replace(content, rs)
		for i, f := range lineFixes {
			if errs[i] != nil {
				skipped = append(skipped, SkippedFix{f, errs[i].Error()})
				continue
			}
			fixed = append(fixed, f)
		}
	}
	for _, f := range listFixes {
		if why := notReadAsItself(f.Fix.Item); why != "" {
			src := index.QuotePath(f.Path)
			skipped = append(skipped, SkippedFix{f, fmt.Sprintf("written in a list, the id %s of %s %s; add the reference by hand (the path %s names the document), or give it another id: canon id rename", strconv.Quote(f.Fix.Item), src, why, src)})
			continue
		}
		next, _, err := edit.AddToList(out, f.Fix.Field, f.Fix.Item)
		if err != nil {
			skipped = append(skipped, SkippedFix{f, err.Error()})
			continue
		}
		out = next
		fixed = append(fixed, f)
	}
	return out, fixed, skipped
}

// notReadAsItself says why an id, written as an item of a list of
// references, would not be read back as a reference to that id, as
// index/resolve reads one (refPlan): a text with commas between ids is that many
// references (requires: 2718, 2930), "#" starts an anchor, "ID@x" names
// the document of id ID whose uid starts with x, "[[x]]" is a wiki-link to
// x, "scheme:" an address, a path with an extension a file. Quoting does
// not change that: it is how canon reads the text. "" when it is read so.
func notReadAsItself(id string) string {
	if parts := markdown.SplitRefs(id); len(parts) > 1 {
		return fmt.Sprintf("would be read as %d references (%s)", len(parts), strings.Join(parts, ", "))
	}
	at := strings.LastIndexByte(id, '@')
	switch {
	case strings.HasPrefix(id, "[[") && strings.HasSuffix(id, "]]"):
		return "would be read as a wiki-link to " + strconv.Quote(id[2:len(id)-2])
	case schemeRE.MatchString(id):
		return "would be read as a web address"
	case strings.Contains(id, "#"):
		return "would be read as " + strconv.Quote(id[:strings.IndexByte(id, '#')]) + " and an anchor"
	case at > 0 && at < len(id)-1 && !strings.ContainsAny(id, "/ "):
		return "would be read as the id " + strconv.Quote(id[:at]) + " of a document whose uid starts with " + strconv.Quote(id[at+1:])
	case resolve.RefNamesAFile(id):
		return "would be read as the path of a file that is not Markdown"
	}
	return readBack(id)
}

// readBack writes id into a list as the edit engine does and reads the
// list again as the index reads a frontmatter's references
// (markdown.Parse's edges): "" when that is one reference whose text is
// id, else what it is read as ("null" and "~" are YAML's empty value, and
// "none", "-" and "n/a" the words a list of references says it has none
// with, even quoted).
func readBack(id string) string {
	const field = "refs"
	probe := []byte("---\n" + field + ": [X-0]\n---\n")
	out, _, err := edit.AddToList(probe, field, id)
	if err != nil {
		return "" // the edit itself says why it is not made
	}
	d := markdown.Parse("", out, &markdown.Options{Edges: map[string]string{field: "relates"}})
	var got []string
	for _, r := range d.Refs {
		if r.Field == field {
			got = append(got, r.Raw)
		}
	}
	switch {
	case len(got) > 0 && got[0] == "X-0":
		got = got[1:]
	default:
		return "would not be read back as written" // the probe itself changed
	}
	switch {
	case len(got) == 0:
		return "would be read as no reference (canon reads it as a list's word for none)"
	case len(got) > 1:
		return fmt.Sprintf("would be read as %d references (%s)", len(got), strings.Join(got, ", "))
	case got[0] != id:
		return "would be read as " + strconv.Quote(got[0])
	}
	return ""
}

// schemeRE is the scheme of an address, as index/resolve reads one (hasScheme):
// two characters at least before the colon, so that C: is a drive.
var schemeRE = lazyre.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]+:`)

// Diff is the unified diff of the plan's edits, as promote prints one.
func (p *FixPlan) Diff() string { return edit.Diff(p.Files) }

// Write makes the edits all or none through the edit engine (each file
// still inside the repository and still holding what was read, the
// journal, the index synced); it returns the paths written.
func (p *FixPlan) Write(ctx context.Context, repo edit.Repo) ([]string, error) {
	return edit.Apply(ctx, repo, p.root, p.Files, "canon check --fix", nil)
}
