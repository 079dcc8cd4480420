package usecase

import (
	"errors"
	"fmt"
	"testing"
)

// Refusal is ErrItem's sentence without the sentinel's words, wrapped or
// not, and nothing for another error.
func TestRefusal(t *testing.T) {
	refused := fmt.Errorf("%w: state=Gone is not a state of Task", ErrItem)
	for _, tc := range []struct {
		err  error
		want string
		ok   bool
	}{
		{refused, "state=Gone is not a state of Task", true},
		{fmt.Errorf("canon set: %w", refused), "canon set: bad item edit: state=Gone is not a state of Task", true},
		{errors.New("disk full"), "", false},
		{nil, "", false},
	} {
		if got, ok := Refusal(tc.err); got != tc.want || ok != tc.ok {
			t.Errorf("Refusal(%v) = %q, %v; want %q, %v", tc.err, got, ok, tc.want, tc.ok)
		}
	}
}
