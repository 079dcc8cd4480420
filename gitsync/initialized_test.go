package gitsync

import (
	"strings"
	"testing"
)

// canon init suggests watch.auto in one line when usecase.Init says the
// repository is large enough, and says nothing of it otherwise.
func TestInitSuggestsWatchAuto(t *testing.T) {
	t.Parallel()
	for _, suggest := range []bool{true, false} {
		in := &Initialized{Config: ".canon/config.yaml", Documents: 25000, HooksRun: true, SuggestWatchAuto: suggest}
		var b strings.Builder
		if err := in.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		const want = "25,000 documents: each command checks every file for edits first; watch.auto: true in .canon/config.yaml starts canon watch in the background"
		if got := strings.Contains(b.String(), want); got != suggest {
			t.Errorf("SuggestWatchAuto %v: the output says it %v:\n%s", suggest, got, b.String())
		}
	}
}
