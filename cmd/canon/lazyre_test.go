package main

import (
	"regexp"
	"testing"

	"github.com/canon-md/canon/index/lazyre"
)

// TestRegexpsCompile compiles every regular expression the packages keep
// in variables: they compile at first use (lazyre), so a typo would
// otherwise only show when that code runs.
func TestRegexpsCompile(t *testing.T) {
	if len(lazyre.All()) < 30 {
		t.Fatalf("only %d expressions registered", len(lazyre.All()))
	}
	for _, r := range lazyre.All() {
		if _, err := regexp.Compile(r.String()); err != nil {
			t.Errorf("%s: %v", r, err)
		}
	}
}
