package resolve

import (
	"slices"
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
)

// Link statuses.
const (
	StatusOK        = "ok"
	StatusSelf      = "self" // a same-file anchor such as [x](#usage)
	StatusDangling  = "dangling"
	StatusAmbiguous = "ambiguous"
	StatusExternal  = "external" // a URL: recorded, not followed
	StatusFile      = "file"     // a link to a non-Markdown file or a folder
)

// Link forms.
const (
	FormRef   = "ref" // a frontmatter reference
	FormMD    = "md"
	FormImage = "image"
	FormWiki  = "wiki"
	FormEmbed = "embed"
	FormURL   = "url"
)

// EdgeReferences is the edge type of a body link to another document.
const EdgeReferences = "references"

// Link is one outgoing link of a document: as written (its type, field,
// form, raw text, anchor and place) and, once planned (Plan), where to
// look for its target.
type Link struct {
	Type, Field, Form, Raw, Anchor string
	Line, Col                      int
	Terms                          []string // the plan: alias terms to try, in order
	UIDPrefix                      string   // from ID@uidprefix: keep only uids with this prefix
	Match                          string   // the match key: the lower-cased last name it points at
	Status                         string   // preset for links that need no lookup
	OrElse                         string   // the status when the plan finds nothing ("": dangling)
}

// DocLinks lists a document's links in a fixed order: frontmatter edges,
// then body links, each in source order.
func DocLinks(srcPath string, d *markdown.Document, pl Planner) []Link {
	out := make([]Link, 0, len(d.Refs)+len(d.Body.Links))
	for _, r := range d.Refs {
		out = append(out, refLink(srcPath, r, pl))
	}
	for _, bl := range d.Body.Links {
		out = append(out, bodyLink(srcPath, bl, pl))
	}
	return out
}

func refLink(srcPath string, r markdown.Ref, pl Planner) Link {
	l := Link{Type: r.Type, Field: r.Field, Form: FormRef, Raw: r.Raw, Line: r.Line, Col: r.Col}
	raw := strings.TrimSpace(r.Raw)
	if strings.HasPrefix(raw, "[[") && strings.HasSuffix(raw, "]]") {
		_, l.Anchor = SplitWiki(raw[2 : len(raw)-2])
	} else if !hasScheme(raw) {
		_, l.Anchor, _ = strings.Cut(raw, "#")
	}
	l.Plan(srcPath, pl)
	return l
}

func bodyLink(srcPath string, bl markdown.Link, pl Planner) Link {
	l := Link{Type: EdgeReferences, Line: bl.Line, Col: bl.Col, Raw: bl.Dest, Anchor: bl.Anchor}
	if bl.Rel != "" {
		l.Type = bl.Rel // Superseded by [2. Use X](0002-use-x.md)
	}
	switch bl.Form {
	case markdown.FormAutolink:
		l.Form = FormURL
	case markdown.FormWiki:
		l.Form = FormWiki
	case markdown.FormEmbed:
		l.Form = FormEmbed
	case markdown.FormImage:
		l.Form = FormImage
	default:
		l.Form = FormMD
	}
	l.Plan(srcPath, pl)
	return l
}

// Doc is a document found under an alias term: its row id (what a link
// resolves to), uid (for ID@uidprefix) and path.
type Doc struct {
	ID   int64
	UID  string
	Path string
}

// stored turns a lookup term into the alias term that is stored. Path
// terms are not stored: every path has its file stem, so "path:P" is the
// documents under the stem of P whose path is P, and "pathnoext:P" those
// whose lower-cased path without .md is P. That keeps the alias table to
// three or four short rows a document.
func stored(term string) (alias string, keep func(path string) bool) {
	switch {
	case strings.HasPrefix(term, "path:"):
		p := term[len("path:"):]
		return "stem:" + strings.ToLower(markdown.Stem(p)), func(path string) bool { return path == p }
	case strings.HasPrefix(term, "pathnoext:"):
		p := term[len("pathnoext:"):]
		return "stem:" + strings.ToLower(markdown.Stem(p)), func(path string) bool { return strings.ToLower(TrimMD(path)) == p }
	}
	return term, nil
}

// StoredAlias is the alias term the alias table stores for a lookup term
// of a plan (a path term is looked up under its file stem): what an
// Aliases is asked for.
func StoredAlias(term string) string {
	alias, _ := stored(term)
	return alias
}

func filterDocs(docs []Doc, keep func(string) bool) []Doc {
	if keep == nil {
		return docs
	}
	var out []Doc
	for _, d := range docs {
		if keep(d.Path) {
			out = append(out, d)
		}
	}
	return out
}

// lookup is the documents a term of a plan names in src: those under its
// stored alias, a path term's kept to that path.
func lookup(src Aliases, term string) ([]Doc, error) {
	alias, keep := stored(term)
	docs, err := src.Lookup(alias)
	if err != nil {
		return nil, err
	}
	return filterDocs(docs, keep), nil
}

// Aliases is the alias table a resolution reads: Lookup returns the
// documents stored under an alias term (StoredAlias). The full build
// answers from memory (MemAliases), an update from the database; both run
// the same resolution.
type Aliases interface {
	Lookup(alias string) ([]Doc, error)
}

// NamespaceOf names the namespace a repo path is in ("" for none); nil when no
// namespaces are configured.
type NamespaceOf func(path string) string

// NamespacesOf makes the NamespaceOf of a configuration.
func NamespacesOf(ns config.Namespaces) NamespaceOf {
	if len(ns) == 0 {
		return nil
	}
	return func(p string) string {
		name, _ := ns.Of(p)
		return name
	}
}

// Resolve decides a planned link's target (a Doc's ID, 0 for none) and
// status, through src. Where an id names several documents and namespaces
// are configured, those in the namespace of the link's own document
// (srcPath) come first: one there resolves the link.
func (l *Link) Resolve(src Aliases, ns NamespaceOf, srcPath string) (dst int64, status string, err error) {
	if l.Status != "" {
		return 0, l.Status, nil
	}
	for _, term := range l.Terms {
		docs, err := lookup(src, term)
		if err != nil {
			return 0, "", err
		}
		if l.UIDPrefix != "" {
			docs = l.withUIDPrefix(docs)
		}
		if strings.HasPrefix(term, "id:") {
			// Namespaces are id spaces: a file stem or a path means the
			// same file from anywhere.
			docs = preferNamespace(docs, ns, srcPath)
		}
		switch len(docs) {
		case 0:
			continue
		case 1:
			return docs[0].ID, StatusOK, nil
		default:
			if last := l.Terms[len(l.Terms)-1]; strings.HasPrefix(term, "stem:") && strings.HasPrefix(last, "title:") {
				// two files named layout.md: the one of them titled so, if
				// one is (two documents of one id stay ambiguous)
				titled, err := lookup(src, last)
				if err != nil {
					return 0, "", err
				}
				var among []Doc
				for _, t := range titled {
					if slices.ContainsFunc(docs, func(d Doc) bool { return d.ID == t.ID }) {
						among = append(among, t)
					}
				}
				if len(among) == 1 {
					return among[0].ID, StatusOK, nil
				}
			}
			if l.OrElse == StatusExternal {
				return 0, StatusExternal, nil // an address names no one document: it stays a web link
			}
			return 0, StatusAmbiguous, nil
		}
	}
	if l.OrElse != "" {
		return 0, l.OrElse, nil
	}
	return 0, StatusDangling, nil
}

// withUIDPrefix keeps the documents whose uid starts with the link's
// UIDPrefix (ID@uidprefix).
func (l *Link) withUIDPrefix(docs []Doc) []Doc {
	kept := docs[:0:0]
	for _, d := range docs {
		if strings.HasPrefix(strings.ToLower(d.UID), l.UIDPrefix) {
			kept = append(kept, d)
		}
	}
	return kept
}

// Candidates are the documents an ambiguous link could mean: those named
// by the first term of its plan that names two or more (its UIDPrefix
// applied), in src's order; nil when none does.
func (l *Link) Candidates(src Aliases) ([]Doc, error) {
	for _, term := range l.Terms {
		docs, err := lookup(src, term)
		if err != nil {
			return nil, err
		}
		if l.UIDPrefix != "" {
			docs = l.withUIDPrefix(docs)
		}
		if len(docs) >= 2 {
			return docs, nil
		}
	}
	return nil, nil
}

// preferNamespace keeps, of several documents, those in the namespace of
// srcPath, if any are.
func preferNamespace(docs []Doc, ns NamespaceOf, srcPath string) []Doc {
	if len(docs) < 2 || ns == nil {
		return docs
	}
	own := ns(srcPath)
	var in []Doc
	for _, d := range docs {
		if ns(d.Path) == own {
			in = append(in, d)
		}
	}
	if len(in) == 0 {
		return docs
	}
	return in
}

// MemAliases is an alias table in memory: the full build's, and the
// terms an update prefetched for a batch of links.
type MemAliases map[string][]Doc

// Lookup returns the documents stored under alias.
func (m MemAliases) Lookup(alias string) ([]Doc, error) {
	return m[alias], nil
}
