package learn

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// Templates are files to copy, not documents: their links and values are
// placeholders until they are copied (eip-template.md's created: <date
// created on, in ISO 8601>), so every finding on them is a false alarm and
// a template in canon ready is no work. canon init learns them into
// templates:, with the evidence for each (issue 43).

// placeholder is a frontmatter value a template leaves to be filled in:
// a whole value in angle brackets (<URL>, <EIP number(s)>: not an address
// such as <a@b.org>), a {{name}}, an XXXX or NNNN (the KEP template's
// kep-number), or YYYY-MM-DD written out.
var placeholder = lazyre.MustCompile(`^<[^<>@]+>$|\{\{[^{}]*\}\}|(?:^|[^A-Za-z])(?:X{3,}|N{4,})(?:[^A-Za-z]|$)|(?i)\byyyy-mm-dd\b`)

// minPlaceholders is how many fields must hold placeholders for a
// document named like any other to count as a template.
const minPlaceholders = 2

// templateNote is one template found, and why.
type templateNote struct{ path, why string }

// noteTemplate notes d when it is a template: named so (markdown's
// IsTemplate, a name ending in -template or _template without an id of
// its own, a file under .github/ whose name or folder says template), or
// holding placeholders in minPlaceholders fields of its frontmatter; and
// reports whether it is.
func (f *facts) noteTemplate(d docRow, m map[string]json.RawMessage) bool {
	var fields []string
	for _, k := range sorted(m) {
		for _, v := range texts(m[k]) {
			if placeholder.MatchString(v) {
				fields = append(fields, k)
				break
			}
		}
	}
	named := templateName(d.path, d.ident != "" && !placeholder.MatchString(d.ident))
	if named == "" && len(fields) < minPlaceholders {
		return false
	}
	var why []string
	if named != "" {
		why = append(why, named)
	}
	if len(fields) > 0 {
		why = append(why, "placeholders in "+clip(fields, 4))
	}
	f.templates = append(f.templates, templateNote{d.path, strings.Join(why, ", ")})
	return true
}

// templateName says how p is named as a template ("" when it is not): by
// markdown.IsTemplate, by a stem ending in -template or _template
// (eip-template, 0000-template) unless the document has an id of its own
// (BET-TSK-0002_render-email-template.md is an item), or by a word
// template in its name or folder under .github/ (PULL_REQUEST_TEMPLATE/).
func templateName(p string, hasID bool) string {
	lower := strings.ToLower(p)
	stem := strings.ToLower(markdown.DisplayStem(p)) // a folder's README: the folder (keps/NNNN-kep-template/)
	switch {
	case strings.HasPrefix(lower, ".github/") && strings.Contains(lower, "template"):
		return "a template of GitHub's under .github/"
	case hasID:
		return ""
	case markdown.IsTemplate(p):
		return "named a template"
	case strings.HasSuffix(stem, "-template") || strings.HasSuffix(stem, "_template"):
		return "named a template"
	}
	return ""
}

func clip(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(" and %d more", len(xs)-n)
}

// decideTemplates writes the templates found: a folder of templates
// (.github/ISSUE_TEMPLATE/) as one glob when two of them or more are in a
// folder whose name says template, each other by its path.
func decideTemplates(f *facts, r *Result) {
	if len(f.templates) == 0 {
		return
	}
	ts := append([]templateNote(nil), f.templates...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].path < ts[j].path })
	inDir := map[string]int{}
	for _, t := range ts {
		inDir[path.Dir(t.path)]++
	}
	var globs, why []string
	seen := map[string]bool{}
	for _, t := range ts {
		g := t.path
		if dir := path.Dir(t.path); inDir[dir] >= 2 && strings.Contains(strings.ToLower(path.Base(dir)), "template") {
			g = dir + "/*.md"
		}
		if seen[g] {
			continue
		}
		seen[g] = true
		if len(globs) == config.MaxTemplates {
			break
		}
		globs = append(globs, g)
		if g != t.path {
			why = append(why, fmt.Sprintf("%s (%d files: %s)", g, inDir[path.Dir(t.path)], t.why))
		} else {
			why = append(why, t.path+" ("+t.why+")")
		}
	}
	r.Learned.Templates = globs
	r.Evidence["templates"] = "files to copy, not documents, left out of canon check, ready and context packs: " + strings.Join(why, "; ")
}
