// Package must ends a test at a setup step that failed (a folder, a file
// or a link it writes), so that a test never goes on from a state it did
// not make.
//
// It imports nothing of canon's, so any package's tests can use it.
package must

import "testing"

// OK fails t at once on the first error that is not nil.
func OK(t testing.TB, errs ...error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}
