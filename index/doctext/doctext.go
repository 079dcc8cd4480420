package doctext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/resolve"
)

// View is a document as canon show prints it: its text is Write's, its
// JSON the DocView's own (the embedded view's fields, as they are).
type View struct{ *index.DocView }

// WriteText is Write of the view.
func (v View) WriteText(w io.Writer) error { return Write(w, v.DocView) }

// Write shows one document: identity, frontmatter, edges out and in,
// sections (with their text when the view holds it) and problems.
func Write(w io.Writer, v *index.DocView) error {
	fmt.Fprintln(w, idTitle(v.ID, v.Title))
	fmt.Fprintf(w, "key    %s\n", human.Quote(v.Key))
	fmt.Fprintf(w, "path   %s\n", index.QuotePath(v.Path))
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
	if len(v.Outgoing) == 0 && v.SelfLinks == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, ed := range v.Outgoing {
		fmt.Fprintf(w, "  %-12s %s\n", human.Quote(ed.Type), describeOut(ed))
	}
	if v.SelfLinks > 0 {
		fmt.Fprintf(w, "  (and %s to this document's own sections)\n", plural(v.SelfLinks, "link"))
	}
	fmt.Fprintln(w, "\nincoming")
	if len(v.Incoming) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, ed := range v.Incoming {
		fmt.Fprintf(w, "  %-12s ← %s  (%s)\n", human.Quote(ed.Type), idTitle(ed.Other.ID, ed.Other.Title), where(ed))
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
	if v.TextLeftOut > 0 {
		fmt.Fprintf(w, "  … about %d tokens of section text left out by the budget (--budget sets it)\n", v.TextLeftOut)
	}
	if len(v.Problems) > 0 {
		fmt.Fprintln(w, "\nproblems")
		for _, p := range v.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
	return nil
}

// describeOut is an outgoing edge: where it points, or why it points
// nowhere, and where it is written.
func describeOut(ed index.Edge) string {
	target := human.Quote(ed.Raw)
	if ed.Form == "wiki" || ed.Form == "embed" {
		target = "[[" + ed.Raw + "]]"
	}
	if ed.Anchor != "" {
		target += "#" + human.Quote(ed.Anchor)
	}
	switch ed.Status {
	case resolve.StatusOK:
		return fmt.Sprintf("→ %s  (%s)", idTitle(ed.Other.ID, ed.Other.Title), where(ed))
	case resolve.StatusSelf:
		return fmt.Sprintf("→ this document %s  (%s)", target, where(ed))
	case resolve.StatusExternal:
		return fmt.Sprintf("→ %s  (external, %s)", target, where(ed))
	case resolve.StatusFile:
		return fmt.Sprintf("→ %s  (a file, not a document, %s)", target, where(ed))
	}
	return fmt.Sprintf("✗ %s  (%s, %s)", target, ed.Status, where(ed))
}

// where is where an edge is written: its field and line, or its path and
// line.
func where(ed index.Edge) string {
	if ed.Field != "" {
		return fmt.Sprintf("%s, line %d", human.Quote(ed.Field), ed.Line)
	}
	return fmt.Sprintf("%s:%d", index.QuotePath(ed.Path), ed.Line)
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

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}
