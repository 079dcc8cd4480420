package usecase

import (
	"strings"
	"testing"
)

func TestPlaceGuide(t *testing.T) {
	first, action, err := PlaceGuide("# Agents\n\nOur rules.")
	if err != nil || action != "added" || !strings.HasPrefix(first, "# Agents\n\nOur rules.\n\n"+AgentsBegin+"\n") {
		t.Fatalf("added: %v %s %q", err, action, first)
	}
	again, action, err := PlaceGuide(first + "\nMore of ours.\n")
	if err != nil || action != "updated" || again != first+"\nMore of ours.\n" {
		t.Fatalf("a second run changed the file: %v %s\n%q", err, action, again)
	}
	if _, _, err := PlaceGuide(AgentsEnd + "\n" + AgentsBegin); err == nil {
		t.Error("markers out of order were taken")
	}
}
