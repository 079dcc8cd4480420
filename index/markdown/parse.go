package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/canon-md/canon/index/lazyre"
)

// Severity of a problem.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Rule ids of the problems the parser itself finds. The validator (canon
// check) adds its own on top.
const (
	RuleYAMLSyntax    = "yaml-syntax"
	RuleFrontmatter   = "frontmatter"
	RuleEdgeValue     = "edge-value"
	RuleFileSkipped   = "file-skipped"
	RuleDanglingRef   = "dangling-ref"
	RuleAmbiguousRef  = "ambiguous-ref"
	RuleDuplicateID   = "duplicate-id"
	RuleDuplicateUID  = "duplicate-uid"
	RuleBrokenLink    = "broken-link"
	RuleWikiLink      = "wiki-link"
	RuleIdentityValue = "identity-value"
	RuleBudget        = "document-budget"
	RuleUnusedDef     = "unused-definition"
	RuleConflict      = "conflict-marker"
)

// Problem is something a document gets wrong, at a position in its file.
type Problem struct {
	Line, Col int
	Rule      string
	Severity  Severity
	Message   string
}

// Options are the configuration the parser needs.
type Options struct {
	// Edges maps a dotted frontmatter field to an edge type.
	Edges map[string]string
	// Kinds maps a lower-cased `type` value to a kind.
	Kinds map[string]string
	// TextFields are frontmatter fields whose values are read as text
	// before YAML parses them, as Backlog.md reads `assignee: @MrLesk`
	// (QuoteTextFields).
	TextFields []string
	// StateField is the frontmatter field the work's state is read from
	// before state and status (emberjs/rfcs' stage: states.field); ""
	// for none.
	StateField string
}

// Ref is an edge declared in frontmatter: field: target.
type Ref struct {
	Type  string // edge type, e.g. parent, blocks
	Field string // the frontmatter field it came from, e.g. links.blocks
	Raw   string // the reference as written
	Line  int
	Col   int
}

// Document is one parsed Markdown file.
type Document struct {
	Format      string // "yaml", "toml" or "" (no frontmatter)
	Frontmatter *Value // a Map; empty when there is none
	ID          string // frontmatter id
	IDLine      int    // line of the id field (0 when there is none)
	UID         string // frontmatter uid
	UIDLine     int
	Type        string // frontmatter type, as written
	Kind        string // canonical kind (see Kind)
	Title       string // frontmatter title, else the first level-1 heading, else ""
	State       string // frontmatter state (or status)
	Refs        []Ref  // edges from frontmatter, in field order
	BodyLine    int    // file line where the body starts
	Body        Body
	Problems    []Problem
	Disables    []Disable // inline opt-outs (see Disable)
	stateField  string    // Options.StateField
}

// FieldPositions is where each top-level frontmatter value is written, as
// JSON {"field": [line, col]}: the validator points at values without
// parsing the file again.
func (d *Document) FieldPositions() []byte {
	b := []byte{'{'}
	for i, f := range d.Frontmatter.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		line, col := f.Value.Line, f.Value.Col
		if line == 0 {
			line, col = f.Line, f.Col
		}
		b = appendJSONString(b, f.Key)
		b = append(b, ':', '[')
		b = strconv.AppendInt(b, int64(line), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(col), 10)
		b = append(b, ']')
	}
	return append(b, '}')
}

// FrontmatterJSON is the frontmatter as a JSON object in source order.
func (d *Document) FrontmatterJSON() []byte {
	return d.Frontmatter.AppendJSON(make([]byte, 0, 256))
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse reads one document. It never fails: whatever is wrong becomes a
// Problem and the rest is still parsed. The path (repo-relative, slash
// separated) is used only for the kind convention.
func Parse(filePath string, src []byte, opt *Options) *Document {
	return ParseWith(filePath, src, opt, nil)
}

// ParseWith is Parse of a document whose sidecar (nil for none) holds
// fields its frontmatter does not set.
func ParseWith(filePath string, src []byte, opt *Options, side *Sidecar) *Document {
	src = bytes.TrimPrefix(src, utf8BOM)
	d := &Document{Frontmatter: &Value{Kind: Map}, stateField: opt.StateField}
	body, bodyLine, res, unclosed := splitFrontmatter(src, opt.TextFields)
	d.BodyLine = bodyLine
	if unclosed {
		d.Problems = append(d.Problems, Problem{Line: 1, Col: 1, Rule: RuleFrontmatter, Severity: Warning,
			Message: "the frontmatter opened on line 1 is never closed; add a closing --- line, or remove the first line if it is not frontmatter"})
	}
	if res != nil {
		d.Format = res.format
		d.Problems = append(d.Problems, res.dups...)
		d.Problems = append(d.Problems, res.dropped...)
		switch {
		case res.err != nil:
			var se *SyntaxError
			if !errors.As(res.err, &se) {
				se = &SyntaxError{Msg: res.err.Error()}
			}
			msg := fmt.Sprintf("frontmatter does not parse: %s; fix the %s so its fields are read", se.Msg, strings.ToUpper(res.format))
			if se.Bound {
				msg = "frontmatter is not read: " + se.Msg
			}
			d.Problems = append(d.Problems, Problem{Line: se.Line, Col: se.Col, Rule: RuleYAMLSyntax, Severity: Error, Message: msg})
		case res.root.Kind == Map:
			d.Frontmatter = res.root
		case res.root.Kind == Null:
			// "---\n---" or only comments: an empty frontmatter.
		default:
			// A text or a list between two --- lines is no frontmatter: a
			// file that opens with a thematic break (---, a heading, text,
			// ---). Read as Markdown, all of it, as CommonMark does.
			d.Format, body, d.BodyLine = "", src, 1
			d.Problems = append(d.Problems, Problem{Line: fmFirstLine, Col: 1, Rule: RuleFrontmatter, Severity: Warning,
				Message: "the lines between the --- at the top are not key: value fields, so canon reads them as Markdown; write them as key: value lines if they are frontmatter"})
		}
	}
	d.takeSidecar(side)
	d.readIdentity()
	d.readRefs(opt.Edges, src)
	d.Body = ScanBody(body, d.BodyLine)
	if n := d.Body.HeadingsDropped; n > 0 {
		d.Problems = append(d.Problems, Problem{Line: d.BodyLine, Col: 1, Rule: RuleBudget, Severity: Warning,
			Message: fmt.Sprintf("the document has %s headings; canon indexes the first %s and reads the other %s as text; split the document", thousands(MaxHeadings+n), thousands(MaxHeadings), thousands(n))})
	}
	for _, u := range d.Body.UnusedDefinitions {
		d.Problems = append(d.Problems, Problem{Line: u.Line, Col: u.Col, Rule: RuleUnusedDef, Severity: Warning,
			Message: fmt.Sprintf("the link reference definition [%s] is used by nothing in this document, so GitHub shows no link; use it or remove the line", u.Text)})
	}
	if n := d.Body.LinksDropped; n > 0 {
		d.Problems = append(d.Problems, Problem{Line: d.BodyLine, Col: 1, Rule: RuleBudget, Severity: Warning,
			Message: fmt.Sprintf("the document has %s links; canon indexes and checks the first %s and skips the other %s; split the document", thousands(MaxLinks+n), thousands(MaxLinks), thousands(n))})
	}
	if d.Title == "" {
		for _, h := range d.Body.Headings {
			if h.Level == 1 {
				d.Title = h.Text
				break
			}
		}
		if GenericHeading(d.Title) {
			d.Title = FileTitle(filePath) // an RFC's "# Summary": its file names it
		}
	}
	d.Kind, d.State = d.At(filePath, opt.Kinds)
	d.Disables = parseDisables(src)
	if line := conflictMarkers(src); line > 0 {
		d.Problems = append(d.Problems, Problem{Line: line, Col: 1, Rule: RuleConflict, Severity: Error,
			Message: "a merge left conflict markers here (<<<<<<<, =======, >>>>>>>); keep what the document should say, delete the marker lines and commit. A server's merge button runs no merge driver: update the branch locally with git merge, where canon's driver runs (docs/merge-driver.md)"})
	}
	return d
}

// At is the kind and the state the document has at filePath: the two
// fields its path decides (the kind by folder and file name; an ADR's
// state from its Status section when the frontmatter has none). Parse
// sets them so; a blob parsed once stands for every path that names it
// through At (the overlays of other refs read a blob once, issue 41).
func (d *Document) At(filePath string, kinds map[string]string) (kind, state string) {
	kind, state = PathFields{Type: d.Type, ID: d.ID, State: d.frontmatterState()}.At(filePath, kinds)
	if kind == "adr" && state == "" {
		state = statusSection(&d.Body) // read only where it counts: Parse calls this for every document
	}
	return kind, state
}

// frontmatterState is the frontmatter's state: the configured field's
// (Options.StateField), else state, else status.
func (d *Document) frontmatterState() string {
	if d.stateField != "" {
		if s := scalarText(d.Frontmatter.Get(d.stateField)); s != "" {
			return s
		}
	}
	if s := scalarText(d.Frontmatter.Get("state")); s != "" {
		return s
	}
	return scalarText(d.Frontmatter.Get("status"))
}

// PathFields are what a document's kind and state at a path are made of
// (Document.At), kept apart from the parsed document: a caller that parses
// a blob once for many paths holds these few strings, not the document.
type PathFields struct {
	Type, ID string
	State    string // the frontmatter's state, or status
	Section  string // an ADR's state from its Status section
}

// PathFields takes d's PathFields.
func (d *Document) PathFields() PathFields {
	f := PathFields{Type: d.Type, ID: d.ID, State: d.frontmatterState()}
	if f.State == "" {
		f.Section = statusSection(&d.Body)
	}
	return f
}

// At is Document.At of the document f was taken from.
func (f PathFields) At(filePath string, kinds map[string]string) (kind, state string) {
	kind, state = Kind(f.Type, f.ID, filePath, kinds), f.State
	if kind == "adr" && state == "" {
		state = f.Section
	}
	return kind, state
}

func (d *Document) readIdentity() {
	fm := d.Frontmatter
	d.ID, d.IDLine = d.identity("id")
	d.UID, d.UIDLine = d.identity("uid")
	d.Type = scalarText(fm.Get("type"))
	d.Title = strings.TrimSpace(scalarText(fm.Get("title")))
}

// identity reads id or uid: a scalar, trimmed. Anything else is a problem and
// the document falls back to the next identity.
func (d *Document) identity(key string) (string, int) {
	f := d.Frontmatter.Field(key)
	if f == nil || f.Value.Kind == Null {
		return "", 0
	}
	s, ok := f.Value.Scalar()
	if !ok {
		d.Problems = append(d.Problems, Problem{Line: f.Line, Col: f.Col, Rule: RuleIdentityValue, Severity: Error,
			Message: fmt.Sprintf("%s must be a single value, not a list or mapping", key)})
		return "", 0
	}
	return strings.TrimSpace(s), f.Line
}

func scalarText(v *Value) string {
	s, _ := v.Scalar()
	return s
}

// readRefs collects edges from the configured fields, in the frontmatter's
// own order so that the result does not depend on map iteration.
func (d *Document) readRefs(edges map[string]string, src []byte) {
	if len(edges) == 0 || len(d.Frontmatter.Fields) == 0 {
		return
	}
	var walk func(v *Value, prefix string)
	walk = func(v *Value, prefix string) {
		for _, f := range v.Fields {
			name := f.Key
			if prefix != "" {
				name = prefix + "." + f.Key
			}
			if typ, ok := edges[name]; ok {
				d.addRefs(typ, name, &f, src)
				continue
			}
			if f.Value.Kind == Map {
				walk(f.Value, name)
			}
		}
	}
	walk(d.Frontmatter, "")
}

func (d *Document) addRefs(typ, field string, f *Field, src []byte) {
	var add func(v *Value)
	add = func(v *Value) {
		line, col := v.Line, v.Col
		if line == 0 {
			line, col = f.Line, f.Col
		}
		if target, ok := yamlWikiLink(v); ok {
			d.Refs = append(d.Refs, Ref{Type: typ, Field: field, Raw: "[[" + target + "]]", Line: line, Col: col})
			return
		}
		switch v.Kind {
		case Null:
		case String, Number:
			raw := strings.TrimSpace(v.Text)
			if raw == "" || isNoneWord(raw) {
				return
			}
			parts := SplitRefs(raw)
			if len(parts) < 2 {
				d.Refs = append(d.Refs, Ref{Type: typ, Field: field, Raw: raw, Line: line, Col: col})
				return
			}
			if quotedAt(src, line, col) {
				col++ // requires: "2718, 2930": the text starts after the quote
			}
			at := 0
			for _, p := range parts { // requires: 2718, 2930
				i := strings.Index(raw[at:], p) + at
				at = i + len(p)
				d.Refs = append(d.Refs, Ref{Type: typ, Field: field, Raw: p, Line: line, Col: col + utf8.RuneCountInString(raw[:i])})
			}
		case List:
			for _, it := range v.Items {
				add(it)
			}
		default:
			d.Problems = append(d.Problems, Problem{Line: f.Line, Col: f.Col, Rule: RuleEdgeValue, Severity: Error,
				Message: fmt.Sprintf("%s must be a reference or a list of references, not a %s", field, kindName(v.Kind))})
		}
	}
	add(f.Value)
}

// splitRef is a part of a reference text written with commas that is
// surely a reference: a bare number (2718, 13.1) or an id shaped
// PREFIX-NUMBER (ADR-1, KB-TSK-0007), either with a uid prefix (@0190).
var splitRef = lazyre.MustCompile(`^(?:\pL[\pL0-9_]*(?:-\pL[\pL0-9_]*)*-)?[0-9]+(?:\.[0-9]+)*(?:@[0-9A-Za-z-]+)?$`)

// SplitRefs splits a text of references written with commas (the EIPs'
// requires: 2718, 2930; related: ADR-1, ADR-2) into them, when every part
// is a number or an id shaped PREFIX-NUMBER: "Tools, Libraries" is a title
// (Just the Docs' parent:), ../a,b.md a path. It returns the text alone
// otherwise.
func SplitRefs(s string) []string {
	if !strings.Contains(s, ",") || strings.Contains(s, "\n") {
		return []string{s}
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if !splitRef.MatchString(p) {
			return []string{s}
		}
		parts[i] = p
	}
	return parts
}

// quotedAt reports a quote at 1-based line and column (in code points) of
// src: where a quoted scalar's value begins.
func quotedAt(src []byte, line, col int) bool {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return false
		}
		src = src[i+1:]
	}
	for c := 1; c < col && len(src) > 0; c++ {
		_, n := utf8.DecodeRune(src)
		src = src[n:]
	}
	return len(src) > 0 && (src[0] == '"' || src[0] == '\'')
}

// yamlWikiLink recognises an unquoted [[target]]: YAML reads it as a list
// holding a list holding one scalar, but its author meant a wiki-link.
func yamlWikiLink(v *Value) (string, bool) {
	if v.Kind != List || len(v.Items) != 1 {
		return "", false
	}
	inner := v.Items[0]
	if inner.Kind != List || len(inner.Items) != 1 {
		return "", false
	}
	return inner.Items[0].Scalar()
}

func kindName(k ValueKind) string {
	switch k {
	case Map:
		return "mapping"
	case List:
		return "list"
	case Bool:
		return "boolean"
	}
	return "value"
}

// isNoneWord reports placeholders that mean "no reference".
func isNoneWord(s string) bool {
	switch strings.ToLower(s) {
	case "none", "null", "~", "-", "n/a":
		return true
	}
	return false
}

// An ADR's id: ADR-NNNN (a product prefix allowed: KABSD-ADR-0010).
// prefixID is an id of one prefix and a number (task-12, BACK-355.01).
var prefixID = lazyre.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)-[0-9]+(?:\.[0-9]+)*$`)

var adrID = lazyre.MustCompile(`^(?i)(?:[a-z][a-z0-9]*-)?adr[-_ ]?[0-9]+$`)

// An ADR's file name: ADR-NNNN, alone or followed by a slug.
// IsADRStem reports a file stem that names a decision record
// (ADR-0004_tokens, adr-004-module-loading), not an appendix of one.
func IsADRStem(stem string) bool { return adrStem.MatchString(stem) && !adrCompanion.MatchString(stem) }

var adrStem = lazyre.MustCompile(`^(?i)adr[-_ ]?[0-9]+(?:[-_ .].*)?$`)

// What an ADR's file name may also hold without being one: a document that
// goes with the decision (ADR-0003-appendix_x.md).
var adrCompanion = lazyre.MustCompile(`(?i)(?:^|[-_ .])(?:appendix|annex|attachment|supplement|notes?|diagram|template)(?:$|[-_ .0-9])`)

// A numbered record's file name, as adr-tools and MADR write them in a
// decisions folder (0001-record-architecture-decisions), or dated as
// log4brains does (20200101-use-x, 2024-03-01-use-y).
var numberedStem = lazyre.MustCompile(`^(?:[0-9]{1,8}(?:\.[0-9]+)*|[0-9]{4}-[0-9]{2}-[0-9]{2})[-_][a-zA-Z]`)

// A dated record's file name (log4brains): 20240301-use-x, 2024-03-01-use-x.
var datedStem = lazyre.MustCompile(`^(?:(?:19|20)[0-9]{6}|[0-9]{4}-[0-9]{2}-[0-9]{2})[-_]`)

// DatedName reports a file stem that starts with a date, as log4brains
// names records: its number is a day, not a place in a series.
func DatedName(stem string) bool { return datedStem.MatchString(stem) }

// What such a name holds when it is no record: a template, an index or an
// overview of the records, an appendix (the word right after the number:
// 0002-keep-release-notes is a record).
var numberedCompanion = lazyre.MustCompile(`^(?i)(?:[0-9.]+|[0-9]{4}-[0-9]{2}-[0-9]{2})[-_](?:template|appendix|annex|attachment|supplement|notes?|diagram|index|overview|readme|toc|contents)(?:$|[-_ .])`)

// decisionFolders are the names of the folders decision records are kept
// in (adr-tools' doc/adr, MADR's docs/decisions).
var decisionFolders = map[string]bool{"adr": true, "adrs": true, "decisions": true, "decision-records": true,
	"architecture-decisions": true, "architecture-decision-records": true}

// IsDecisionFolder reports a folder name decision records are kept in
// (adr, adrs, decisions, decision-records, architecture-decisions, ...),
// in any case.
func IsDecisionFolder(name string) bool { return decisionFolders[strings.ToLower(name)] }

// IsTemplate reports a file that is a template to copy, not a document:
// its name is template(s), template-X, or what it templates and template
// (adr-template.md, PULL_REQUEST_TEMPLATE.md, issue_template.md), or a
// folder it is in is named template (MADR's template/) or is GitHub's
// .github/ISSUE_TEMPLATE/, PULL_REQUEST_TEMPLATE/ or DISCUSSION_TEMPLATE/. Its links and values
// are placeholders (yyyymmdd-xxx.md, {YYYY-MM-DD}). A page about templates
// is none: use-issue-templates.md, render-email-template.md, Hugo's
// templates/ and functions/go-template/.
func IsTemplate(filePath string) bool {
	segs := strings.Split(strings.ToLower(filePath), "/")
	for _, dir := range segs[:len(segs)-1] {
		if dir == "template" || dir == "issue_template" || dir == "discussion_template" || dir == "pull_request_template" {
			return true
		}
	}
	stem := strings.TrimSuffix(segs[len(segs)-1], path.Ext(segs[len(segs)-1]))
	if stem == "template" || stem == "templates" || strings.HasPrefix(stem, "template-") || strings.HasPrefix(stem, "template_") {
		return true
	}
	for _, sep := range []string{"-template", "_template"} {
		if what, ok := strings.CutSuffix(stem, sep); ok && templated[what] {
			return true
		}
	}
	return false
}

// templated are what a template is named after (adr-template.md).
var templated = map[string]bool{"adr": true, "madr": true, "decision": true, "record": true, "rfc": true, "kep": true,
	"issue": true, "pull_request": true, "pr": true, "bug_report": true, "feature_request": true, "bug": true,
	"feature": true, "task": true, "story": true, "epic": true, "spec": true, "doc": true, "page": true, "note": true, "post": true}

// Kind derives a document's kind: from its type through the kinds mapping
// (an unknown type is kept as written), else by convention: an ADR-NNNN id,
// or without an id an ADR-NNNN file name, or a numbered one (0001-use-x)
// in a folder named adr, adrs, decisions or the like, that is not a
// companion of one (an appendix, a template), means adr; else doc. A
// decisions/ folder alone decides nothing: it holds READMEs and appendices
// too.
func Kind(typ, id, filePath string, kinds map[string]string) string {
	if t := strings.TrimSpace(typ); t != "" {
		if k, ok := kinds[strings.ToLower(t)]; ok {
			return k
		}
		return t
	}
	if id != "" {
		if adrID.MatchString(strings.TrimSpace(id)) {
			return "adr"
		}
		// task-12, bug-3, BACK-12 (Backlog.md's): a prefix that names a
		// kind of work; a decision's prefix is no ADR's id (adrID).
		if m := prefixID.FindStringSubmatch(strings.TrimSpace(id)); m != nil {
			if k := kinds[strings.ToLower(m[1])]; k != "" && k != "adr" {
				return k
			}
		}
		return "doc"
	}
	if stem := Stem(filePath); adrStem.MatchString(stem) && !adrCompanion.MatchString(stem) || FolderRecord(typ, id, filePath) {
		return "adr"
	}
	return "doc"
}

// FolderRecord reports a decision record known only by its place: no type,
// no id, no ADR-NNNN name, but a numbered (or dated) file name in a folder
// named adr, adrs, decisions or the like, not a companion of one. Each
// repository writes such records its own way (a Status section, a
// "**Status**: Accepted" line, nothing), so canon check holds them to the
// adr schema only where the repository configures one.
func FolderRecord(typ, id, filePath string) bool {
	if strings.TrimSpace(typ) != "" || id != "" {
		return false
	}
	stem := Stem(filePath)
	return numberedStem.MatchString(stem) && !adrStem.MatchString(stem) && !numberedCompanion.MatchString(stem) &&
		IsDecisionFolder(path.Base(path.Dir(filePath)))
}

// recordStates are the states a decision record's Status section may open
// with (adr-tools: "## Status\n\nSuperseded by [3. Use X](…)").
var recordStates = map[string]bool{"draft": true, "proposed": true, "accepted": true, "rejected": true, "deprecated": true,
	"superseded": true, "amended": true, "approved": true, "declined": true, "withdrawn": true}

// statusSection is a decision record's state as it is written without
// frontmatter: the first word of its first Status section (heading level
// 1 or 2; adr-tools), else of a "Status:" line before its first section
// below the title ("**Status**: Accepted", MADR 2's "* Status: accepted"),
// when that word is a record's state; "" otherwise.
func statusSection(b *Body) string {
	for _, sec := range b.Sections {
		if sec.Slug != "status" || sec.Heading < 0 || b.Headings[sec.Heading].Level > 2 {
			continue
		}
		if w := LeadWord(sec.Text); recordStates[strings.ToLower(w)] {
			return w
		}
		return ""
	}
	for i, sec := range b.Sections {
		if sec.Heading >= 0 && (b.Headings[sec.Heading].Level > 1 || i > 0 && b.Sections[i-1].Heading >= 0) {
			break // the record's own sections begin: only its preamble and its title's text are its header
		}
		for _, line := range strings.Split(sec.Text, "\n") {
			line = strings.TrimLeft(strings.TrimSpace(line), "*-+ ")
			line = strings.TrimLeft(line, "*_")
			if len(line) < len("status:") || !strings.EqualFold(line[:len("status")], "status") {
				continue
			}
			rest := strings.TrimLeft(line[len("status"):], "*_ ")
			if !strings.HasPrefix(rest, ":") {
				continue
			}
			if w := LeadWord(rest[1:]); recordStates[strings.ToLower(w)] && statusAlone(rest[1:], w) {
				return w
			}
			return ""
		}
	}
	return ""
}

// statusAlone reports a status line whose state word stands alone: at the
// end, or followed by anything but a word (Accepted (2026-07-16), Accepted —
// shipped, Accepted 2020-01-01, Accepted ✅) or by a word that says when or
// by what (Superseded by ADR-0031, Accepted on 2020-01-01, Deprecated since
// v2); not prose that opens with it ("draft of the overview page").
func statusAlone(text, word string) bool {
	i := strings.Index(text, word)
	if i < 0 {
		return false
	}
	next := strings.Fields(text[i+len(word):])
	if len(next) == 0 {
		return true
	}
	if r, _ := utf8.DecodeRuneInString(next[0]); !unicode.IsLetter(r) {
		return true
	}
	switch strings.ToLower(strings.TrimRight(next[0], ",;:.")) {
	case "by", "in", "on", "since", "and", "as", "at", "per", "via", "with":
		return true
	}
	return false
}

// LeadWord is the first word of a section's text: its first run of
// letters ("Accepted" of "**Accepted**.", "Accepted/Implemented" and
// "Accepted<br>"); "" when it holds none.
func LeadWord(text string) string {
	start := strings.IndexFunc(text, unicode.IsLetter)
	if start < 0 {
		return ""
	}
	end := strings.IndexFunc(text[start:], func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		return text[start:]
	}
	return text[start : start+end]
}

// Stem is a file's name without folder and .md extension: the display id of
// a document without an id, and what wiki-links name.
func Stem(filePath string) string {
	base := path.Base(filePath)
	if ext := path.Ext(base); strings.EqualFold(ext, ".md") {
		base = base[:len(base)-len(ext)]
	}
	return base
}

// DisplayStem is the name a document without an id is shown by: its file
// stem, but for a folder's page (README.md or index.md, any case, below
// the root) the folder's name: keps/sig-node/2400-node-swap/README.md is
// 2400-node-swap, not README.
func DisplayStem(filePath string) string {
	stem := Stem(filePath)
	if dir := path.Dir(filePath); dir != "." && dir != "/" && (strings.EqualFold(stem, "readme") || strings.EqualFold(stem, "index")) {
		return path.Base(dir)
	}
	return stem
}

// thousands writes n with thousands separators, as messages do: 20,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// conflictMarkers is the line of the first conflict a merge left in src
// (a <<<<<<< line, then =======, then >>>>>>>, outside fenced code), or 0.
// Most documents hold no "<<<<<<<" at all and cost one search.
func conflictMarkers(src []byte) int {
	if !bytes.Contains(src, []byte("<<<<<<<")) {
		return 0
	}
	fence, open, sep := "", 0, false
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSuffix(line, "\r")
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			mark := t[:3]
			switch {
			case fence == "":
				fence = mark
			case mark == fence && strings.Trim(t, mark[:1]+" \t") == "":
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		switch {
		case marker(line, '<'):
			open, sep = i+1, false
		case open > 0 && strings.TrimRight(line, "=") == "" && len(line) >= 7:
			sep = true
		case open > 0 && sep && marker(line, '>'):
			return open
		}
	}
	return 0
}

// marker reports a line of seven or more c followed by nothing or a space.
func marker(line string, c byte) bool {
	n := 0
	for n < len(line) && line[n] == c {
		n++
	}
	return n >= 7 && (n == len(line) || line[n] == ' ')
}

// FrontmatterSize is the size of the frontmatter src opens with, its
// delimiters apart (0 without one, or when it never closes): a scan for
// the closing line, before any parse, so that a caller bounds what it
// hands the YAML parser (the merge driver, the overlays of other refs).
func FrontmatterSize(src []byte) int {
	src = bytes.TrimPrefix(src, utf8BOM)
	nl := bytes.IndexByte(src, '\n')
	if nl < 0 {
		return 0
	}
	if d := string(bytes.TrimRight(src[:nl], " \t\r")); d != "---" && d != "+++" {
		return 0
	}
	for at := nl + 1; at < len(src); {
		end := bytes.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src) - at
		}
		if d := string(bytes.TrimRight(src[at:at+end], " \t\r")); d == "---" || d == "+++" {
			return at - nl - 1
		}
		at += end + 1
	}
	return 0
}
