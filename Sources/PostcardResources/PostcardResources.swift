// The app's style sheet (Resources/style.css, listed in Resources/postcard.gresource.xml) and its
// translations (po/<lang>.po), compiled during `swift build` by the CompileResources plugin
// (Plugins/CompileResources) into `CompiledPostcardResources`: the GResource bundle registered at first use,
// and the folder of this build's compiled catalogues (where the app looks when run from the checkout).
