package usecase

import (
	"context"
	"fmt"
	"strings"

	"github.com/canon-md/canon/gitsync"
)

// Move is canon set ITEM state=STATE for a front end that names the
// state and not the field: the board's move of a card. The state goes
// into the field the item keeps it in (state or status, as the item or
// the documents of its kind spell it), checked as canon set checks a
// state (one the repository's documents of that kind are in, or their
// schema lists) and written, checked and committed as canon set writes.
func Move(ctx context.Context, s *gitsync.Session, ref, state string, a ItemArgs) (*ItemEdited, error) {
	if strings.TrimSpace(state) == "" {
		return nil, fmt.Errorf("%w: name the state to move it to", ErrItem)
	}
	e, err := newItemEditor(ctx, s, ref)
	if err != nil {
		return nil, err
	}
	sf, err := e.stateField(ctx)
	if err != nil {
		return nil, err
	}
	a.Ref = ref
	if a.Command == "" {
		a.Command = "canon set"
	}
	a.Set = append([]FieldValue{{Field: sf, Value: state}}, a.Set...)
	return e.run(ctx, a)
}
