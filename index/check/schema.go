package check

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/internal/checkreads"
	"github.com/canon-md/canon/index/lazyre"
	"github.com/canon-md/canon/index/markdown"
)

// Frontmatter checks: which schema holds a document (follows), its
// required fields, allowed values and patterns, and the date fields.

// fields checks frontmatter against the kind's schema and the date fields.
func (c *checker) fields() error {
	ck := &c.in.Cfg.Check
	for _, d := range c.full() {
		if schema, ok := ck.Schemas[d.kind]; ok && (d.typ != "" || d.kind == "adr") && (!markdown.FolderRecord(d.typ, d.ident, d.path) || ck.SchemasSet["adr"]) {
			if ok, err := c.follows(d); err != nil {
				return err
			} else if ok {
				c.schema(d, &schema)
			}
		}
		for _, f := range ck.Dates {
			v, ok := d.value(f)
			if !ok || v == nil {
				continue
			}
			s, isString := v.(string)
			if isString && strings.TrimSpace(s) == "" {
				continue // not filled in ("" where a tool leaves a date to come), as a missing one
			}
			if !isString {
				c.addAt(d, f, "date-format", fmt.Sprint(v), fmt.Sprintf("%s is %s, not a date; write it as YYYY-MM-DD", f, yamlKind(v)))
				continue
			}
			if why := badDate(s); why != "" {
				c.addAt(d, f, "date-format", s, fmt.Sprintf("%s %q is not a date: %s; write it as YYYY-MM-DD (a time may follow)", f, s, why))
			}
		}
	}
	return nil
}

// yamlKind says what YAML read a frontmatter value as, in words: a
// placeholder in braces ({YYYY-MM-DD}) is a mapping to YAML, and Go's own
// printing of it (map[YYYY-MM-DD:<nil>]) means nothing to the user.
func yamlKind(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			for k, val := range x {
				if val == nil {
					return fmt.Sprintf("{%s}, which YAML reads as a mapping (quote a placeholder in braces)", k)
				}
			}
		}
		return "a mapping"
	case []any:
		return "a list"
	case bool:
		return fmt.Sprintf("%v, a true/false value", x)
	}
	return fmt.Sprintf("%v", v)
}

// addAt reports at the position of a top-level frontmatter field's value.
// The target is the field and its value: a changed value that is still
// wrong is a new problem, one that stays is not.
func (c *checker) addAt(d *doc, field, rule, value, msg string) {
	p, _ := d.pos.get(field)
	c.addField(d.path, p[0], p[1], field, value, rule, field+"="+value, msg)
}

// kanoID is the shape of a Kano work item's id: KB-TSK-0001, APP-EPIC-12.
var kanoID = lazyre.MustCompile(`^[A-Za-z][A-Za-z0-9]*-(EPIC?|FTR|USR|TSK|BUG)-[0-9]+$`)

// follows reports whether the schema of d's kind applies to d. A schema the
// configuration sets applies to every document of its kind; a default one
// (Kano's, docs/architecture.md) applies where Kano's convention is the
// repository's: to an ADR, an item with a Kano-shaped id or none, an item
// of a Kano product, and every item of a repository where any document has
// a Kano-shaped id (there "TSK-2" is a mistake). A repository with
// conventions of its own (Backlog.md's "type: bug" with "id: BACK-534",
// "priority: high", "status: To Do") is not held to Kano's: the repo's
// convention wins over a default.
func (c *checker) follows(d *doc) (bool, error) {
	switch {
	case c.in.Cfg.Check.SchemasSet[d.kind], d.kind == "adr", d.ident == "", KanoShaped(c.in.Cfg.IDs, d.ident):
		return true, nil
	}
	if _, ns := c.in.Cfg.Namespaces.Of(d.path); ns != nil {
		return true, nil
	}
	if c.kano == 0 {
		// LIKE finds the candidates (a Kano repository's first rows are
		// Kano's); the pattern decides.
		kano, err := checkreads.AnyIdentLike(c.ctx, c.q, []string{"%-TSK-%", "%-BUG-%", "%-USR-%", "%-FTR-%", "%-EPI%-%"}, func(id string) bool { return KanoShaped(c.in.Cfg.IDs, id) })
		if err != nil {
			return false, err
		}
		c.kano = -1
		if kano {
			c.kano = 1
		}
	}
	return c.kano > 0, nil
}

// statusWritten reports a decision record whose state is written in its
// text, as adr-tools and MADR write it (a "## Status" section, a
// "**Status**: Accepted" line: markdown's statusSection), and is one of
// the allowed states, in any case (any state when the schema allows any).
func statusWritten(d *doc, allowed []string) bool {
	return d.state != "" && (len(allowed) == 0 || slices.ContainsFunc(allowed, func(a string) bool { return strings.EqualFold(a, d.state) }))
}

// stateSynonym names the other field a document's state may be written
// in: a schema that requires one is satisfied by the other.
var stateSynonym = map[string]string{"state": "status", "status": "state"}

func (c *checker) schema(d *doc, s *config.Schema) {
	for _, f := range s.Required {
		v, ok := d.value(f)
		if alt := stateSynonym[f]; alt != "" && (!ok || v == nil || v == "") {
			v, ok = d.value(alt) // canon reads either as the state (markdown.Document.State)
		}
		if d.kind == "adr" && (!c.in.Cfg.Check.SchemasSet["adr"] || markdown.FolderRecord(d.typ, d.ident, d.path)) && (!ok || v == nil || v == "") {
			// Decision records as MADR and adr-tools write them: "# Use X"
			// names the record, a "## Status" section holds its status. A
			// repository's own adr schema asks frontmatter of records named
			// ADR-NNNN, not of those adr-tools numbers (which have none).
			if f == "title" && d.title != "" || stateSynonym[f] != "" && statusWritten(d, s.States) {
				continue
			}
			if stateSynonym[f] != "" && d.state != "" {
				p, _ := d.pos.get(f)
				c.addField(d.path, p[0], p[1], f, d.state, "enum-value", f+"="+d.state, fmt.Sprintf("the written %s %q is not one of %s; use one of them, or list it in check.schemas.%s", f, d.state, strings.Join(s.States, ", "), d.kind))
				continue
			}
		}
		if !ok || v == nil || v == "" {
			c.add(d.path, 1, 1, "required-field", f, fmt.Sprintf("%s needs %s; add %s: to the frontmatter", article(d.kind), f, f))
		}
	}
	stateField := "state"
	if _, ok := d.fm.get("state"); !ok {
		stateField = "status"
	}
	states := s.States
	if _, ns := c.in.Cfg.Namespaces.Of(d.path); ns != nil && d.kind != "adr" {
		// A Kano product's process profile says which states its work
		// items take; one canon cannot read leaves them unchecked.
		switch {
		case ns.Unchecked:
			states = nil
		case len(ns.States) > 0:
			states = ns.States
		}
	}
	c.enum(d, stateField, states)
	c.enum(d, "priority", s.Priorities)
	if s.IDPattern != "" && d.ident != "" {
		re, err := c.regexp(s.IDPattern)
		if err == nil && !c.in.Cfg.IDs.Matches(re, d.ident) {
			c.add(d.path, d.identLine, idCol(d), "id-format", d.ident,
				fmt.Sprintf("id %s does not match %s, the pattern for %s; rename it, or change check.schemas.%s.id_pattern", d.ident, s.IDPattern, article(d.kind), d.kind))
		}
	}
}

// regexp compiles a pattern once per run.
func (c *checker) regexp(pattern string) (*regexp.Regexp, error) {
	if re, ok := c.patterns[pattern]; ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if c.patterns == nil {
		c.patterns = map[string]*regexp.Regexp{}
	}
	c.patterns[pattern] = re
	return re, err
}

func idCol(d *doc) int {
	if p, ok := d.pos.get("id"); ok {
		return p[1]
	}
	return 1
}

func (c *checker) enum(d *doc, field string, allowed []string) {
	v, ok := d.value(field)
	if !ok || v == nil || len(allowed) == 0 {
		return
	}
	s := fmt.Sprint(v)
	for _, a := range allowed {
		if a == s {
			return
		}
	}
	for _, a := range allowed {
		if d.kind == "adr" && strings.EqualFold(a, s) {
			// canon reads states in any case, and MADR writes status:
			// proposed: a warning, as for an anchor's case. (An item's
			// tool may read them exactly: Kano's.)
			c.addAt(d, field, "enum-case", s, fmt.Sprintf("%s %q is %s in another case: canon reads it so, but the kind's schema writes %s", field, s, a, a))
			return
		}
	}
	msg := fmt.Sprintf("%s %q is not one of %s", field, s, strings.Join(allowed, ", "))
	if near := nearest(s, allowed); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	} else if name, ns := c.in.Cfg.Namespaces.Of(d.path); ns != nil && len(ns.States) > 0 && field != "priority" {
		msg += fmt.Sprintf("; use one of them (the states of %s)", name)
	} else {
		msg += fmt.Sprintf("; use one of them, or list it in check.schemas.%s", d.kind)
	}
	c.addAt(d, field, "enum-value", s, msg)
}

// nearest finds an allowed value equal to s but for case, spaces, dashes,
// underscores and combining marks (the first, in allowed's order).
func nearest(s string, allowed []string) string {
	if near := nearAll(s, allowed); len(near) > 0 {
		return near[0]
	}
	return ""
}

// nearAll lists the allowed values equal to s but for case, spaces,
// dashes, underscores and combining marks, in allowed's order.
func nearAll(s string, allowed []string) []string {
	norm := func(x string) string {
		x = strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(x))
		return strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1 // İ lower-cases to i and a combining dot
			}
			return r
		}, x)
	}
	var out []string
	for _, a := range allowed {
		if norm(a) == norm(s) {
			out = append(out, a)
		}
	}
	return out
}

// badDate says why s is not YYYY-MM-DD or an RFC 3339 date-time ("" when it
// is one).
func badDate(s string) string {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return ""
	}
	day, rest := s, ""
	if len(s) > 10 && (s[10] == 'T' || s[10] == 't' || s[10] == ' ' || s[10] == '\t') {
		day, rest = s[:10], s[11:]
	}
	if len(day) != 10 || day[4] != '-' || day[7] != '-' {
		return "the form is not YYYY-MM-DD"
	}
	if _, err := time.Parse("2006-01-02", day); err != nil {
		// A field that is not a number stays 0, which the message names.
		var month, d int
		_, _ = fmt.Sscanf(day[5:7], "%d", &month)
		_, _ = fmt.Sscanf(day[8:10], "%d", &d)
		if month < 1 || month > 12 {
			return fmt.Sprintf("there is no month %d", month)
		}
		return fmt.Sprintf("day %d does not exist in that month", d)
	}
	if len(s) > 10 {
		return badTimeOfDay(rest) // "2024-01-15T" with no time says so
	}
	return ""
}

// timeOfDay is what may follow a date and a T or spaces, as YAML's
// timestamps, Jekyll and Hugo write it: 10:30, 10:30:00, 9:05:07.25, then a
// zone (Z, +01:00, +0100, -7) or none.
var timeOfDay = lazyre.MustCompile(`^[ \t]*([0-9]{1,2}):([0-9]{2})(?::([0-9]{2})(?:\.[0-9]+)?)?(?:[ \t]*(?:Z|[+-][0-9]{1,2}(?::?[0-9]{2})?))?$`)

// badTimeOfDay says what is wrong with the time that follows a date, or ""
// (the hour is below 24, the minute below 60, the second below 61).
func badTimeOfDay(s string) string {
	m := timeOfDay.FindStringSubmatch(s)
	if m == nil {
		return "the time after the date is not HH:MM[:SS] with an optional zone"
	}
	// The pattern holds digits only; the seconds may be absent (0).
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(m[3])
	if h > 23 || mi > 59 || sec > 60 {
		return fmt.Sprintf("there is no time %s", strings.TrimSpace(s))
	}
	return ""
}

// KanoShaped reports whether id is shaped like a Kano work item's id
// (KB-TSK-0001; KB-TSK-7f3a9c under the random scheme ids): where one is,
// Kano's default schemas hold (follows).
func KanoShaped(ids config.IDs, id string) bool { return ids.Matches(kanoID.Regexp(), id) }

// IsDate reports whether s is a date date-format accepts.
func IsDate(s string) bool { return badDate(s) == "" }
