package usecase

import (
	"context"
	"errors"
	"os"
	"strings"

	"github.com/canon-md/canon/gitsync"
)

// AgentEnv names the environment variable that says who an agent is:
// who a claim names and whose a log line is, when no name is given.
const AgentEnv = "CANON_AGENT"

// Claimant is who a claim names: as when it is given, else $CANON_AGENT,
// else git's user.name in the repository ("" when none says). canon
// claim, the board and MCP item_claim all ask it.
func Claimant(ctx context.Context, s *gitsync.Session, as string) string {
	if as = strings.TrimSpace(as); as != "" {
		return as
	}
	if a := strings.TrimSpace(os.Getenv(AgentEnv)); a != "" {
		return a
	}
	name, _ := s.Repo.GitText(ctx, "config", "user.name")
	return strings.TrimSpace(name)
}

// Refusal is the sentence of an ErrItem refusal, without the sentinel's
// words, and whether err is one: what every front end shows.
func Refusal(err error) (string, bool) {
	if !errors.Is(err, ErrItem) {
		return "", false
	}
	return strings.TrimPrefix(err.Error(), ErrItem.Error()+": "), true
}
