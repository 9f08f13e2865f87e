package render

import (
	_ "embed"
	"strings"
)

// codeMessages are the message ids the Go code of this package, of
// internal/chart and of recipe.Commented names as string literals (the templates' ids are read
// from the templates themselves): every language must have each of them.
// They are data, one a line in codemessages.txt; TestCodeMessagesListed
// keeps the list equal to the code's literals.
var codeMessages = strings.Fields(codeMessageList)

//go:embed codemessages.txt
var codeMessageList string
