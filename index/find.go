package index

import (
	"context"
	"fmt"
	"strings"
)

// NotFoundError says a reference names no document.
type NotFoundError struct{ Ref string }

func (e *NotFoundError) Error() string { return fmt.Sprintf("no document is called %q", e.Ref) }

// AmbiguousError says a reference names more than one document.
type AmbiguousError struct {
	Ref  string
	Docs []DocRef
}

func (e *AmbiguousError) Error() string {
	var names []string
	for i, d := range e.Docs {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(e.Docs)-i))
			break
		}
		name := d.Path
		if d.Key != d.Path {
			name += " (" + d.Key + ")" // a key of its own: an id or a uid
		}
		names = append(names, name)
	}
	return fmt.Sprintf("%q names %d documents: %s; give the path or the node key", e.Ref, len(e.Docs), strings.Join(names, ", "))
}

// FindOne resolves a reference (key, uid, id, path, stem, ID@uidprefix,
// NAMESPACE:ID, title) to exactly one document, or says why not with a
// *NotFoundError or an *AmbiguousError.
func (s *Store) FindOne(ctx context.Context, ref string) (*DocRef, error) {
	docs, err := s.Find(ctx, ref)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, &NotFoundError{Ref: ref}
	case 1:
		return &docs[0], nil
	}
	if one := s.authored(docs); one != nil {
		return one, nil
	}
	return nil, &AmbiguousError{Ref: ref, Docs: docs}
}

// authored is the one document of docs that is neither a template nor a
// test fixture's copy (LeftOut), or nil when none or several are: a
// fixture's copy of KEP-1687 does not make KEP-1687 ambiguous.
func (s *Store) authored(docs []DocRef) *DocRef {
	if s.LeftOut == nil {
		return nil
	}
	var one *DocRef
	for i := range docs {
		if s.LeftOut(docs[i].Path) {
			continue
		}
		if one != nil {
			return nil
		}
		one = &docs[i]
	}
	return one
}
