def league(request):
    """The site's name, for the header of pages that belong to no league."""
    return {"site_name": "Twenty-Five League"}
