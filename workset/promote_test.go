package workset

import (
	"testing"
)

func TestADRSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Keep the inbox table, drop the queue":                                      "keep-the-inbox-table-drop-the-queue",
		"retry with exponential back-off, capped at ten minutes and then some more": "retry-with-exponential-back-off-capped-at-ten",
		"Ünïcode — only?":        "ncode-only",
		"!!!":                    "decision",
		"PSP's 3DS2 SDK, v2.1.0": "psp-s-3ds2-sdk-v2-1-0",
	} {
		if got := adrSlug(in); got != want {
			t.Errorf("adrSlug(%q) = %q, want %q", in, got, want)
		}
	}
}
