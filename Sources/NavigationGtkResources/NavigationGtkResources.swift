// The navigation toolkit's style sheets (navigation.css, navigation-dark.css, listed in
// navigation.gresource.xml) and its translations (po/navigation-gtk/<lang>.po), compiled during
// `swift build` by the CompileResources plugin (Plugins/CompileResources) into
// `CompiledNavigationGtkResources`: the GResource bundle registered at first use, and the folder of this
// build's compiled catalogues. Nothing generated is committed; an edit to a style sheet or a .po file is in
// the next build. `GLib.Localization` finds the catalogues; `NavigationGtk.NavigationStyle` loads the style.
