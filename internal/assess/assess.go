// Package assess takes loaded studies through the stages between load and
// render, in the order the data flows:
//
//  1. report: package report decides which runs can be compared
//     (report.Exclusions) and computes everything a report shows;
//  2. check: package check runs every rule over the study and its report;
//  3. claims: package claims compares each figure the study copies from
//     its source with the report, and check words each that does not hold
//     (check.AddClaims).
//
// It neither reads nor writes; package pipeline streams each study
// through Study, and tests of the packages below use it as well.
package assess

import (
	"sort"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// Study computes a study's report, checks both and checks its claims.
func Study(s *study.Study) check.Result {
	rep := report.Build(s, report.Exclusions(s))
	res := check.Study(rep)
	check.AddClaims(&res, claims.Check(rep))
	return res
}

// All assesses every study, in order of id, on every core, then adds the
// diagnostics of the rule that spans studies (the copy rule).
func All(studies []*study.Study) []check.Result {
	sorted := append([]*study.Study(nil), studies...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	out := make([]check.Result, len(sorted))
	index := map[string]int{}
	for i, s := range sorted {
		index[s.ID] = i
	}
	workers.Each(len(sorted), func(i int) { out[i] = Study(sorted[i]) })
	refs := make([][]check.BlockRef, len(sorted))
	for i, s := range sorted {
		refs[i] = check.BlockRefs(s)
	}
	for id, diags := range check.Copies(refs) {
		check.AddCross(&out[index[id]], diags)
	}
	return out
}
