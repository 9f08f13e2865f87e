package downloads

import (
	"fmt"

	"github.com/perflab/perflab/internal/report"
)

// AnalysisFile is where a study's analysis download goes: in a folder of
// its own, since a study id may hold dots and data/<id>.json is taken.
func AnalysisFile(id string) string { return "data/analysis/" + id + ".json" }

// AddAnalysis adds a study's derived claims (report.Analysis) as JSON.
func AddAnalysis(files Output, rep *report.Report) error {
	data, err := MarshalIndent(rep.Analysis())
	if err != nil {
		return fmt.Errorf("%s: %w", AnalysisFile(rep.Study.ID), err)
	}
	return files.Add(AnalysisFile(rep.Study.ID), data)
}
