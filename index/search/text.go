package search

import (
	"fmt"
	"io"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/human"
)

// Text renderers of what a search answers (canon search). The JSON of the
// same types is their documented shape.

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
		fmt.Fprintf(w, "   %s:%d%s\n", index.QuotePath(h.Path), h.Line, key)
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

// idTitle is a document's id and title on one line: the title once when it
// says the same as the id (a page named after its file), none when empty.
func idTitle(id, title string) string { return human.Named(id, title, "  ") }
