// The app's API speaks in routes, flows and journeys (``Route``, ``FlowKind``, ``Journey``): the modules
// that define them come with it, as the toolkit's do with NavigationGtk.
@_exported import PostcardJourney
@_exported import PostcardModel
