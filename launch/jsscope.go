package launch

// followJS binds the modules the JavaScript at p loads when they can be
// followed; false leaves the caller's conservative scope.
func (a *analyzer) followJS(cx context, p, source, why string) bool {
	return false
}
