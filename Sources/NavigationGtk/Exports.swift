// What every caller of the toolkit uses, re-exported so that `import NavigationGtk` is the one import
// an app needs: the GTK bindings (`Gtk`: Button, Label, Window, Application…) and the navigation model
// (`Navigation`: Presentation, FlowCompletion, NavigationStackState…).
@_exported import Gtk
@_exported import Navigation
