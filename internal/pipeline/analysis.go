package pipeline

import (
	"encoding/json"
	"fmt"

	"github.com/perflab/perflab/internal/report"
)

// analysisFile is where a study's analysis download goes: in a folder of
// its own, since a study id may hold dots and data/<id>.json is taken.
func analysisFile(id string) string { return "data/analysis/" + id + ".json" }

// addAnalysis adds a study's derived claims (report.Analysis) as JSON.
func addAnalysis(files Output, rep *report.Report) error {
	data, err := json.MarshalIndent(rep.Analysis(), "", "  ")
	if err != nil {
		return fmt.Errorf("%s: %w", analysisFile(rep.Study.ID), err)
	}
	return files.Add(analysisFile(rep.Study.ID), append(data, '\n'))
}
