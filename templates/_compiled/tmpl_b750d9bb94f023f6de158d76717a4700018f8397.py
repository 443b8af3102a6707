from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'package/_field.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_f = resolve('f')
    try:
        t_1 = environment.filters['py_ident']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'py_ident' found.")
    try:
        t_2 = environment.filters['py_str']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'py_str' found.")
    try:
        t_3 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    if ((not t_3(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'alias'))) and environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'required')):
        pass
        yield '    '
        yield str(t_1(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'py_name')))
        yield ': '
        yield str(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'annotation'))
        yield ' = Field(alias='
        yield str(t_2(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'alias')))
        yield ')\n'
    elif (not t_3(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'alias'))):
        pass
        yield '    '
        yield str(t_1(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'py_name')))
        yield ': '
        yield str(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'annotation'))
        yield ' = Field(default=None, alias='
        yield str(t_2(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'alias')))
        yield ')\n'
    elif environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'required'):
        pass
        yield '    '
        yield str(t_1(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'py_name')))
        yield ': '
        yield str(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'annotation'))
        yield '\n'
    else:
        pass
        yield '    '
        yield str(t_1(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'py_name')))
        yield ': '
        yield str(environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'annotation'))
        yield ' = None\n'

blocks = {}
debug_info = '2=30&3=33&4=39&5=42&6=48&7=51&9=58'