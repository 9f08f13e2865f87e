package importer

import (
	"fmt"
	"regexp"
)

// MaxSteps bounds the optimisation steps of a report: each is a section,
// a chart and a table of the study, and real reports have a handful.
const MaxSteps = 256

// Patterns used once per heading, run or table cell: compiled once.
var (
	engineSuffix = regexp.MustCompile(` in (vllm|sglang|tensorrt llm|trt llm|tensorrt llm vllm|mindie|lmdeploy)( .*)?$`)
	lineBreakTag = regexp.MustCompile(`(?i)<br\s*/?>`)
	startsWord   = regexp.MustCompile(`^[a-z0-9]`)
)

// ids hands out unique ids: base, then base-2, base-3, ... Each id costs
// one lookup, however many share a base.
type ids struct {
	used map[string]bool
	next map[string]int // the next suffix to try for a base
}

func (u *ids) unique(base string) string {
	if u.used == nil {
		u.used, u.next = map[string]bool{}, map[string]int{}
	}
	id := base
	for i := max(u.next[base], 2); u.used[id]; i++ {
		id = fmt.Sprintf("%s-%d", base, i)
		u.next[base] = i + 1
	}
	u.used[id] = true
	return id
}
