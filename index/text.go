package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/resolve"
)

// Text renderers of what the index answers (canon show, canon search). The
// JSON of the same types is their documented shape.

// Found is a search's answer: the query and its hits, best first.
type Found struct {
	Hits  []Hit    `json:"hits"`
	Query string   `json:"query"`
	Read  *Reading `json:"read,omitempty"` // how the query was read
}

// NewFound wraps hits for output (none is [], not null).
func NewFound(query string, hits []Hit) *Found {
	if hits == nil {
		hits = []Hit{}
	}
	return &Found{Hits: hits, Query: query}
}

// Reread sets a natural reading's match from the hits it holds (after
// they were cut to fewer than were searched for): all when each holds
// every word, else any.
func (f *Found) Reread() {
	if f.Read == nil || !f.Read.natural() || len(f.Hits) == 0 {
		return
	}
	f.Read.Match = MatchAll
	for _, h := range f.Hits {
		if len(h.Words) > 0 || len(h.Added) > 0 {
			f.Read.Match = MatchAny
		}
	}
}

// WriteText lists the hits: id, title and section; path:line and key; the
// snippet.
func (f *Found) WriteText(w io.Writer) error {
	if f.Read != nil {
		if line := f.Read.Line(); line != "" {
			fmt.Fprintln(w, line)
		}
	}
	if len(f.Hits) == 0 {
		_, err := fmt.Fprintf(w, "no matches for %q\n", f.Query)
		return err
	}
	for i, h := range f.Hits {
		section := ""
		if h.Section != "" && h.Section != h.Title {
			section = " › " + human.Quote(h.Section)
		}
		fmt.Fprintf(w, "%d. %s%s\n", i+1, idTitle(h.ID, h.Title), section)
		key := "  [" + human.Quote(h.Key) + "]"
		if h.Key == h.Path {
			key = "" // a document without an id or uid is keyed by its path
		}
		fmt.Fprintf(w, "   %s:%d%s\n", QuotePath(h.Path), h.Line, key)
		if h.Snippet != "" {
			fmt.Fprintf(w, "   %s\n", human.Quote(h.Snippet))
		}
		if len(h.Also) > 0 {
			shown := strings.Join(h.Also[:min(3, len(h.Also))], ", ")
			if len(h.Also) > 3 {
				shown += ", …"
			}
			fmt.Fprintf(w, "   the same section in %s: %s\n", human.Plural(len(h.Also), "more document"), human.Quote(shown))
		}
		if len(h.Words) > 0 || len(h.Added) > 0 {
			line := fmt.Sprintf("   holds %d of %d words", len(h.Words), len(f.Read.Words))
			if len(h.Words) > 0 {
				line += ": " + human.Quote(strings.Join(h.Words, ", "))
			}
			if len(h.Added) > 0 {
				line += "; added: " + human.Quote(strings.Join(h.Added, ", "))
			}
			fmt.Fprintln(w, line)
		}
	}
	return nil
}

// Line says, in one line, how a natural query was read when that is not
// plain from the text: which words counted, which were ignored, and
// whether hits hold all of them or some, and the words a vocabulary bridge
// added. It is "" when every word counted
// and every hit holds them all, or for a query with operators.
func (r *Reading) Line() string {
	if r.Match == MatchExact || (len(r.Ignored) == 0 && r.Match == MatchAll && len(r.Added) == 0 && len(r.Respelled) == 0) {
		return ""
	}
	how := "all of"
	if r.Match == MatchAny {
		how = "any of"
	}
	line := "searched for " + how + ": " + human.Quote(strings.Join(r.Words, ", "))
	if len(r.Ignored) > 0 {
		line += " (ignored: " + human.Quote(strings.Join(r.Ignored, ", ")) + ")"
	}
	if len(r.Respelled) > 0 {
		var as []string
		for _, a := range r.Respelled {
			as = append(as, a.Word+" for "+a.For)
		}
		line += " (as the documents spell it: " + human.Quote(strings.Join(as, ", ")) + ")"
	}
	if len(r.Common) > 0 {
		line += " (too common to rank by: " + human.Quote(strings.Join(r.Common, ", ")) + ")"
	}
	if len(r.Added) > 0 {
		var added []string
		for _, a := range r.Added {
			added = append(added, a.Word+" for "+a.For)
		}
		line += " (added by word vectors: " + human.Quote(strings.Join(added, ", ")) + ")"
	}
	return line
}

// WriteText shows one document: identity, frontmatter, edges out and in,
// sections (with their text when the view holds it) and problems.
func (v *DocView) WriteText(w io.Writer) error {
	fmt.Fprintln(w, idTitle(v.ID, v.Title))
	fmt.Fprintf(w, "key    %s\n", human.Quote(v.Key))
	fmt.Fprintf(w, "path   %s\n", QuotePath(v.Path))
	kind := v.Kind
	if v.Type != "" && !strings.EqualFold(v.Type, v.Kind) {
		kind += " (type " + v.Type + ")"
	}
	fmt.Fprintf(w, "kind   %s", human.Quote(kind))
	if v.State != "" {
		fmt.Fprintf(w, "   state %s", human.Quote(v.State))
	}
	fmt.Fprintln(w)
	if fm := frontmatterLines(v.Frontmatter); len(fm) > 0 {
		fmt.Fprintln(w, "\nfrontmatter")
		for _, l := range fm {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintln(w, "\noutgoing")
	if len(v.Outgoing) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, ed := range v.Outgoing {
		fmt.Fprintf(w, "  %-12s %s\n", human.Quote(ed.Type), ed.describeOut())
	}
	fmt.Fprintln(w, "\nincoming")
	if len(v.Incoming) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, ed := range v.Incoming {
		fmt.Fprintf(w, "  %-12s ← %s  (%s)\n", human.Quote(ed.Type), idTitle(ed.Other.ID, ed.Other.Title), ed.where())
	}
	fmt.Fprintln(w, "\nsections")
	for _, sec := range v.Sections {
		name := human.Quote(sec.Heading)
		if name == "" {
			name = "(before the first heading)"
		}
		fmt.Fprintf(w, "  %-32s %s  lines %d–%d\n", "#"+human.Quote(sec.Slug), name, sec.Line, sec.EndLine)
		if t := strings.TrimRight(sec.Text, "\n"); t != "" { // --text
			for _, line := range strings.Split(t, "\n") {
				fmt.Fprintf(w, "    │ %s\n", line)
			}
		}
	}
	if len(v.Problems) > 0 {
		fmt.Fprintln(w, "\nproblems")
		for _, p := range v.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	return nil
}

func (ed Edge) describeOut() string {
	target := human.Quote(ed.Raw)
	if ed.Form == "wiki" || ed.Form == "embed" {
		target = "[[" + ed.Raw + "]]"
	}
	if ed.Anchor != "" {
		target += "#" + human.Quote(ed.Anchor)
	}
	switch ed.Status {
	case resolve.StatusOK:
		return fmt.Sprintf("→ %s  (%s)", idTitle(ed.Other.ID, ed.Other.Title), ed.where())
	case resolve.StatusSelf:
		return fmt.Sprintf("→ this document %s  (%s)", target, ed.where())
	case resolve.StatusExternal:
		return fmt.Sprintf("→ %s  (external, %s)", target, ed.where())
	case resolve.StatusFile:
		return fmt.Sprintf("→ %s  (a file, not a document, %s)", target, ed.where())
	}
	return fmt.Sprintf("✗ %s  (%s, %s)", target, ed.Status, ed.where())
}

func (ed Edge) where() string {
	if ed.Field != "" {
		return fmt.Sprintf("%s, line %d", human.Quote(ed.Field), ed.Line)
	}
	return fmt.Sprintf("%s:%d", QuotePath(ed.Path), ed.Line)
}

// frontmatterLines renders frontmatter JSON (in source order) as YAML-like
// lines for people: nested mappings indented, lists of scalars inline.
func frontmatterLines(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	renderObject(dec, "", &out)
	return out
}

func renderObject(dec *json.Decoder, indent string, out *[]string) {
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return
		}
		key := human.Quote(fmt.Sprint(tok))
		val, err := dec.Token()
		if err != nil {
			return
		}
		switch val {
		case json.Delim('{'):
			*out = append(*out, indent+key+":")
			renderObject(dec, indent+"  ", out)
		case json.Delim('['):
			*out = append(*out, indent+key+": "+renderArray(dec))
		default:
			*out = append(*out, indent+key+": "+scalar(val))
		}
	}
	_, _ = dec.Token() // the closing }
}

func renderArray(dec *json.Decoder) string {
	var items []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case json.Delim('['):
			items = append(items, renderArray(dec))
		case json.Delim('{'):
			var nested []string
			renderObject(dec, "", &nested)
			items = append(items, "{"+strings.Join(nested, ", ")+"}")
		default:
			items = append(items, scalar(tok))
		}
	}
	_, _ = dec.Token() // the closing ]
	return "[" + strings.Join(items, ", ") + "]"
}

func scalar(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case string:
		return human.Quote(v)
	}
	return fmt.Sprint(tok)
}

// idTitle is a document's id and title on one line: the title once when it
// says the same as the id (a page named after its file), none when empty.
func idTitle(id, title string) string { return human.Named(id, title, "  ") }
