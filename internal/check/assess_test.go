package check

import (
	"sort"

	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// assessed takes a study through the stages as package assess does
// (report, check, claims), which this package's tests cannot import.
func assessed(s *study.Study) Result {
	rep := report.Build(s, report.Exclusions(s))
	res := Study(rep)
	AddClaims(&res, claims.Check(rep))
	return res
}

// assessAll is assess.All: every study assessed, then the copy rule.
func assessAll(studies []*study.Study) []Result {
	sorted := append([]*study.Study(nil), studies...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	out := make([]Result, len(sorted))
	refs := make([][]BlockRef, len(sorted))
	index := map[string]int{}
	for i, s := range sorted {
		out[i], refs[i], index[s.ID] = assessed(s), BlockRefs(s), i
	}
	for id, diags := range Copies(refs) {
		AddCross(&out[index[id]], diags)
	}
	return out
}
